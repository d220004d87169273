/// SHA-256 (FIPS 180-4), written here so the package needs no crypto dependency.
///
/// The generic entry points are inlinable and hand contiguous bytes (arrays, `Data`,
/// buffers) to one compiled routine, so a caller in another module pays no generic
/// dispatch per byte; hashing allocates nothing until the digest is returned.
public struct SHA256: Sendable {
    /// The digest length in bytes.
    public static let byteCount = 32
    /// The block length in bytes.
    public static let blockSize = 64

    /// The eight working words.
    @usableFromInline var state: SIMD8<UInt32> = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    /// The bytes of an unfinished block, `length % 64` of them.
    @usableFromInline var pending = SIMD64<UInt8>()
    /// Bytes fed so far.
    @usableFromInline var length: UInt64 = 0

    /// Starts an empty hash.
    @inlinable
    public init() {}

    /// The digest of `bytes`.
    @inlinable
    public static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Feeds more bytes into the hash.
    @inlinable
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            update(bytes: UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            // A sequence with no contiguous storage goes through a block-sized buffer.
            var chunk: [UInt8] = []
            chunk.reserveCapacity(SHA256.blockSize * 16)
            for byte in bytes {
                chunk.append(byte)
                if chunk.count == chunk.capacity {
                    chunk.withUnsafeBytes { update(bytes: $0) }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            chunk.withUnsafeBytes { update(bytes: $0) }
        }
    }

    /// Feeds the bytes of `buffer` into the hash.
    @usableFromInline
    mutating func update(bytes buffer: UnsafeRawBufferPointer) {
        guard var next = buffer.baseAddress, !buffer.isEmpty else { return }
        var remaining = buffer.count
        var filled = Int(length % 64)
        length &+= UInt64(remaining)
        if filled > 0 {
            let take = min(remaining, 64 - filled)
            for offset in 0..<take { pending[filled + offset] = next.load(fromByteOffset: offset, as: UInt8.self) }
            filled += take
            next += take
            remaining -= take
            guard filled == 64 else { return }
            var block = pending
            withUnsafeBytes(of: &block) { compress(UnsafeRawPointer($0.baseAddress!)) }
        }
        while remaining >= 64 {
            compress(next)
            next += 64
            remaining -= 64
        }
        for offset in 0..<remaining { pending[offset] = next.load(fromByteOffset: offset, as: UInt8.self) }
    }

    /// Pads, finishes and returns the 32-byte digest.
    public mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        let filled = Int(length % 64)
        var tail = SIMD64<UInt8>()
        for index in 0..<filled { tail[index] = pending[index] }
        tail[filled] = 0x80
        if filled >= 56 {
            withUnsafeBytes(of: &tail) { compress(UnsafeRawPointer($0.baseAddress!)) }
            tail = SIMD64<UInt8>()
        }
        for index in 0..<8 { tail[56 + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index)) }
        withUnsafeBytes(of: &tail) { compress(UnsafeRawPointer($0.baseAddress!)) }
        pending = SIMD64<UInt8>()
        length = 0
        return [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { digest, count in
            for index in 0..<8 {
                let word = state[index]
                digest[4 * index] = UInt8(truncatingIfNeeded: word >> 24)
                digest[4 * index + 1] = UInt8(truncatingIfNeeded: word >> 16)
                digest[4 * index + 2] = UInt8(truncatingIfNeeded: word >> 8)
                digest[4 * index + 3] = UInt8(truncatingIfNeeded: word)
            }
            count = SHA256.byteCount
        }
    }

    /// Runs the compression function over the 64 bytes at `block`.
    @usableFromInline
    mutating func compress(_ block: UnsafeRawPointer) {
        // The message schedule, 16 words at a time in a ring (no allocation).
        var w = SIMD16<UInt32>()
        for index in 0..<16 {
            w[index] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        withUnsafeBytes(of: SHA256.roundConstants) { constants in
            for index in 0..<64 {
                let word: UInt32
                if index < 16 {
                    word = w[index]
                } else {
                    let w15 = w[(index - 15) & 15], w2 = w[(index - 2) & 15]
                    let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                    let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                    word = w[index & 15] &+ s0 &+ w[(index - 7) & 15] &+ s1
                    w[index & 15] = word
                }
                let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                let choice = (e & f) ^ (~e & g)
                let constant = constants.load(fromByteOffset: index * 4, as: UInt32.self)
                let temp1 = h &+ s1 &+ choice &+ constant &+ word
                let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = s0 &+ majority
                h = g; g = f; f = e; e = d &+ temp1
                d = c; c = b; b = a; a = temp1 &+ temp2
            }
        }
        state &+= SIMD8(a, b, c, d, e, f, g, h)
    }

    /// `K`, the 64 round constants.
    private static let roundConstants: (
        SIMD16<UInt32>, SIMD16<UInt32>, SIMD16<UInt32>, SIMD16<UInt32>
    ) = (
        [0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
         0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174],
        [0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
         0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967],
        [0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
         0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070],
        [0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
         0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]
    )
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
