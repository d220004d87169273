/// SHA-256 (FIPS 180-4), written here so the package needs no crypto dependency.
///
/// The generic entry points are inlinable and hand contiguous bytes (arrays, `Data`,
/// buffers) to one compiled routine, so a caller in another module pays no generic
/// dispatch per byte. Hashing allocates nothing until the digest is returned.
public struct SHA256: Sendable {
    /// The digest length in bytes.
    public static let byteCount = 32
    /// The block length in bytes.
    public static let blockSize = 64

    /// The eight working words.
    @usableFromInline var state: SIMD8<UInt32> = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
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
            withUnsafeBytes(of: &block) { compress(UnsafeRawPointer($0.baseAddress!), count: 1) }
        }
        if remaining >= 64 {
            let blocks = remaining / 64
            compress(next, count: blocks)
            next += blocks * 64
            remaining -= blocks * 64
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
            withUnsafeBytes(of: &tail) { compress(UnsafeRawPointer($0.baseAddress!), count: 1) }
            tail = SIMD64<UInt8>()
        }
        for index in 0..<8 { tail[56 + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index)) }
        withUnsafeBytes(of: &tail) { compress(UnsafeRawPointer($0.baseAddress!), count: 1) }
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

    /// Runs the compression function over `count` 64-byte blocks from `blocks`: the state
    /// and the message schedule live in locals, and the 64 rounds are written out with
    /// their constants (generated; see FIPS 180-4, 6.2.2).
    @usableFromInline
    mutating func compress(_ blocks: UnsafeRawPointer, count: Int) {
        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        var block = blocks
        for _ in 0..<count {
            let (a0, b0, c0, d0, e0, f0, g0, h0) = (a, b, c, d, e, f, g, h)
            var w0 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            var w1 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            var w2 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            var w3 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
            var w4 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            var w5 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
            var w6 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
            var w7 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
            var w8 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
            var w9 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
            var w10 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 40, as: UInt32.self))
            var w11 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 44, as: UInt32.self))
            var w12 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 48, as: UInt32.self))
            var w13 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
            var w14 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 56, as: UInt32.self))
            var w15 = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 60, as: UInt32.self))
            sha256Round(a, b, c, &d, e, f, g, &h, 0x428a_2f98, w0)
            sha256Round(h, a, b, &c, d, e, f, &g, 0x7137_4491, w1)
            sha256Round(g, h, a, &b, c, d, e, &f, 0xb5c0_fbcf, w2)
            sha256Round(f, g, h, &a, b, c, d, &e, 0xe9b5_dba5, w3)
            sha256Round(e, f, g, &h, a, b, c, &d, 0x3956_c25b, w4)
            sha256Round(d, e, f, &g, h, a, b, &c, 0x59f1_11f1, w5)
            sha256Round(c, d, e, &f, g, h, a, &b, 0x923f_82a4, w6)
            sha256Round(b, c, d, &e, f, g, h, &a, 0xab1c_5ed5, w7)
            sha256Round(a, b, c, &d, e, f, g, &h, 0xd807_aa98, w8)
            sha256Round(h, a, b, &c, d, e, f, &g, 0x1283_5b01, w9)
            sha256Round(g, h, a, &b, c, d, e, &f, 0x2431_85be, w10)
            sha256Round(f, g, h, &a, b, c, d, &e, 0x550c_7dc3, w11)
            sha256Round(e, f, g, &h, a, b, c, &d, 0x72be_5d74, w12)
            sha256Round(d, e, f, &g, h, a, b, &c, 0x80de_b1fe, w13)
            sha256Round(c, d, e, &f, g, h, a, &b, 0x9bdc_06a7, w14)
            sha256Round(b, c, d, &e, f, g, h, &a, 0xc19b_f174, w15)
            w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
            sha256Round(a, b, c, &d, e, f, g, &h, 0xe49b_69c1, w0)
            w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
            sha256Round(h, a, b, &c, d, e, f, &g, 0xefbe_4786, w1)
            w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
            sha256Round(g, h, a, &b, c, d, e, &f, 0x0fc1_9dc6, w2)
            w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
            sha256Round(f, g, h, &a, b, c, d, &e, 0x240c_a1cc, w3)
            w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
            sha256Round(e, f, g, &h, a, b, c, &d, 0x2de9_2c6f, w4)
            w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
            sha256Round(d, e, f, &g, h, a, b, &c, 0x4a74_84aa, w5)
            w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
            sha256Round(c, d, e, &f, g, h, a, &b, 0x5cb0_a9dc, w6)
            w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
            sha256Round(b, c, d, &e, f, g, h, &a, 0x76f9_88da, w7)
            w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
            sha256Round(a, b, c, &d, e, f, g, &h, 0x983e_5152, w8)
            w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
            sha256Round(h, a, b, &c, d, e, f, &g, 0xa831_c66d, w9)
            w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
            sha256Round(g, h, a, &b, c, d, e, &f, 0xb003_27c8, w10)
            w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
            sha256Round(f, g, h, &a, b, c, d, &e, 0xbf59_7fc7, w11)
            w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
            sha256Round(e, f, g, &h, a, b, c, &d, 0xc6e0_0bf3, w12)
            w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
            sha256Round(d, e, f, &g, h, a, b, &c, 0xd5a7_9147, w13)
            w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
            sha256Round(c, d, e, &f, g, h, a, &b, 0x06ca_6351, w14)
            w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
            sha256Round(b, c, d, &e, f, g, h, &a, 0x1429_2967, w15)
            w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
            sha256Round(a, b, c, &d, e, f, g, &h, 0x27b7_0a85, w0)
            w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
            sha256Round(h, a, b, &c, d, e, f, &g, 0x2e1b_2138, w1)
            w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
            sha256Round(g, h, a, &b, c, d, e, &f, 0x4d2c_6dfc, w2)
            w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
            sha256Round(f, g, h, &a, b, c, d, &e, 0x5338_0d13, w3)
            w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
            sha256Round(e, f, g, &h, a, b, c, &d, 0x650a_7354, w4)
            w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
            sha256Round(d, e, f, &g, h, a, b, &c, 0x766a_0abb, w5)
            w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
            sha256Round(c, d, e, &f, g, h, a, &b, 0x81c2_c92e, w6)
            w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
            sha256Round(b, c, d, &e, f, g, h, &a, 0x9272_2c85, w7)
            w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
            sha256Round(a, b, c, &d, e, f, g, &h, 0xa2bf_e8a1, w8)
            w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
            sha256Round(h, a, b, &c, d, e, f, &g, 0xa81a_664b, w9)
            w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
            sha256Round(g, h, a, &b, c, d, e, &f, 0xc24b_8b70, w10)
            w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
            sha256Round(f, g, h, &a, b, c, d, &e, 0xc76c_51a3, w11)
            w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
            sha256Round(e, f, g, &h, a, b, c, &d, 0xd192_e819, w12)
            w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
            sha256Round(d, e, f, &g, h, a, b, &c, 0xd699_0624, w13)
            w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
            sha256Round(c, d, e, &f, g, h, a, &b, 0xf40e_3585, w14)
            w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
            sha256Round(b, c, d, &e, f, g, h, &a, 0x106a_a070, w15)
            w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
            sha256Round(a, b, c, &d, e, f, g, &h, 0x19a4_c116, w0)
            w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
            sha256Round(h, a, b, &c, d, e, f, &g, 0x1e37_6c08, w1)
            w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
            sha256Round(g, h, a, &b, c, d, e, &f, 0x2748_774c, w2)
            w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
            sha256Round(f, g, h, &a, b, c, d, &e, 0x34b0_bcb5, w3)
            w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
            sha256Round(e, f, g, &h, a, b, c, &d, 0x391c_0cb3, w4)
            w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
            sha256Round(d, e, f, &g, h, a, b, &c, 0x4ed8_aa4a, w5)
            w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
            sha256Round(c, d, e, &f, g, h, a, &b, 0x5b9c_ca4f, w6)
            w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
            sha256Round(b, c, d, &e, f, g, h, &a, 0x682e_6ff3, w7)
            w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
            sha256Round(a, b, c, &d, e, f, g, &h, 0x748f_82ee, w8)
            w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
            sha256Round(h, a, b, &c, d, e, f, &g, 0x78a5_636f, w9)
            w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
            sha256Round(g, h, a, &b, c, d, e, &f, 0x84c8_7814, w10)
            w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
            sha256Round(f, g, h, &a, b, c, d, &e, 0x8cc7_0208, w11)
            w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
            sha256Round(e, f, g, &h, a, b, c, &d, 0x90be_fffa, w12)
            w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
            sha256Round(d, e, f, &g, h, a, b, &c, 0xa450_6ceb, w13)
            w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
            sha256Round(c, d, e, &f, g, h, a, &b, 0xbef9_a3f7, w14)
            w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
            sha256Round(b, c, d, &e, f, g, h, &a, 0xc671_78f2, w15)
            a &+= a0
            b &+= b0
            c &+= c0
            d &+= d0
            e &+= e0
            f &+= f0
            g &+= g0
            h &+= h0
            block += 64
        }
        state = SIMD8(a, b, c, d, e, f, g, h)
    }
}

// The helpers are transparent, so that they are inlined in a debug build too: called, they
// were two thirds of a debug server's time hashing request bodies, for 5 MB/s a core.
// Shifts are masking shifts (`&>>`), which compile to one instruction at any -O; `>>`
// with a shift count of another type is a generic call in a debug build.
extension UInt32 {
    @_transparent
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self &>> count) | (self &<< (32 &- count))
    }
}

/// One round: `d` and `h` are the words it changes; the caller rotates the names.
@_transparent
private func sha256Round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
    _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ k: UInt32, _ w: UInt32
) {
    let sigma1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
    let choice = (e & f) ^ (~e & g)
    let temp1 = h &+ sigma1 &+ choice &+ k &+ w
    let sigma0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
    let majority = (a & b) ^ (a & c) ^ (b & c)
    d &+= temp1
    h = temp1 &+ sigma0 &+ majority
}

@_transparent
private func smallSigma0(_ x: UInt32) -> UInt32 { x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x &>> 3) }

@_transparent
private func smallSigma1(_ x: UInt32) -> UInt32 { x.rotatedRight(17) ^ x.rotatedRight(19) ^ (x &>> 10) }
