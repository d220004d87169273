/// HMAC-SHA256 (RFC 2104), proven against the RFC 4231 test vectors.
public enum HMACSHA256 {
    /// The authentication code of `message` under `key`.
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        PreparedKey(key).authenticationCode(for: message)
    }

    /// A key with its padded inner and outer blocks already hashed, so each code costs two
    /// compressions fewer; for a signer that uses one key for every request.
    struct PreparedKey: Sendable {
        private let inner: SHA256
        private let outer: SHA256

        init(_ key: [UInt8]) {
            var block = key.count > SHA256.blockSize ? SHA256.hash(key) : key
            block += [UInt8](repeating: 0, count: SHA256.blockSize - block.count)
            var inner = SHA256()
            inner.update(block.map { $0 ^ 0x36 })
            var outer = SHA256()
            outer.update(block.map { $0 ^ 0x5c })
            self.inner = inner
            self.outer = outer
        }

        /// The authentication code of `message`.
        func authenticationCode<Message: Sequence>(for message: Message) -> [UInt8] where Message.Element == UInt8 {
            var inner = self.inner
            inner.update(message)
            var outer = self.outer
            outer.update(inner.finalize())
            return outer.finalize()
        }
    }

    /// Whether two codes are equal, in time that does not depend on where they differ.
    public static func isEqual(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        var difference: UInt8 = 0
        for index in first.indices { difference |= first[index] ^ second[index] }
        return difference == 0
    }
}

extension Array where Element == UInt8 {
    /// Lowercase hexadecimal text of the bytes.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of hexadecimal `text`, or nil if it is not an even run of hex digits.
    public init?(hexString text: String) {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        func nibble(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }
}
