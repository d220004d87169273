import Foundation

/// A strict JSON (RFC 8259) parser over UTF-8 bytes, producing ``JSONValue``.
///
/// Rejects trailing commas, comments, leading zeros, lone surrogates and invalid UTF-8;
/// limits nesting to `maximumDepth` so hostile input cannot exhaust the stack.
struct JSONParser {
    static let maximumDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
            return value
        }
    }

    private func error(_ reason: String) -> JSONParseError {
        JSONParseError(description: "malformed JSON at byte \(index): \(reason)")
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0a, 0x0d, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws -> JSONValue {
        guard depth < JSONParser.maximumDepth else { throw error("nested deeper than \(JSONParser.maximumDepth)") }
        guard index < bytes.count else { throw error("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        default: return .number(try parseNumber())
        }
    }

    private mutating func expect(_ word: StaticString) throws {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw error("unexpected end") }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] {
            throw error("unknown literal")
        }
        index += length
    }

    private mutating func parseObject(depth: Int) throws -> JSONValue {
        index += 1
        // Names compare by Unicode scalars (RFC 8259); a repeated name keeps its last value.
        // Members are collected first so that the object's dictionary is sized once.
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject())
        }
        members.reserveCapacity(8)
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(JSONObject(members: members))
            }
            throw error("expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func parseString() throws -> String {
        index += 1
        let start = index
        // Fast path: no escapes. `seen` collects the bits of every byte, so an all-ASCII
        // string (the common case) is made without validating it again.
        var seen: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let text = seen < 0x80 ? String(decoding: run, as: UTF8.self) : JSONParser.validatedString(run)
                else {
                    throw error("invalid UTF-8 in a string")
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            seen |= byte
            index += 1
        }
        var scalars = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = scalars.withUnsafeBufferPointer(JSONParser.validatedString) else {
                    throw error("invalid UTF-8 in a string")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unexpected end") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5c)
                case UInt8(ascii: "/"): scalars.append(0x2f)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0c)
                case UInt8(ascii: "n"): scalars.append(0x0a)
                case UInt8(ascii: "r"): scalars.append(0x0d)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("lone surrogate") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("lone surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("lone surrogate")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    /// `bytes` as a string, or nil when they are not valid UTF-8. Decoding repairs each
    /// invalid sequence with U+FFFD, so the text's bytes equal the input exactly when there
    /// was nothing to repair. (`String(validating:as:)` does the same work but, unspecialised
    /// across modules, spends as long again looking up generic metadata.)
    static func validatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let same =
            text.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(bytes) } ?? text.utf8.elementsEqual(bytes)
        return same ? text : nil
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws -> Double {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("unexpected end") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        } else {
            throw error("unexpected character")
        }
        var isFraction = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isFraction = true
            index += 1
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw error("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isFraction = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw error("expected exponent digits") }
        }
        let negative = bytes[start] == UInt8(ascii: "-")
        let firstDigit = negative ? start + 1 : start
        if !isFraction, index - firstDigit <= 15 {
            // An integer of at most 15 digits is exact as a Double: no text, no strtod.
            var magnitude = 0
            for offset in firstDigit..<index {
                magnitude = magnitude &* 10 &+ Int(bytes[offset] &- UInt8(ascii: "0"))
            }
            return negative ? -Double(magnitude) : Double(magnitude)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw error("number out of range") }
        return number
    }
}
