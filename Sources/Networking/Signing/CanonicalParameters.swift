import Foundation

/// The one text form of a parameter set, for queries, form bodies, cache keys and signatures.
///
/// Keys and values are percent-encoded (every byte but `A-Z a-z 0-9 - . _ ~`, as `%XX`
/// with capital hex), the pairs sorted by their encoded key, then encoded value, as byte
/// strings, and joined as `k=v&k=v`.
public enum CanonicalParameters {
    /// Why parameter text could not be read.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// More fields than allowed.
        case tooManyFields(limit: Int)
        /// A field name appears twice.
        case repeatedName(String)
        /// A `%` escape is not followed by two hex digits, or the bytes are not UTF-8.
        case badEscape

        public var description: String {
            switch self {
            case .tooManyFields(let limit): return "more than \(limit) parameters"
            case .repeatedName(let name): return "parameter \"\(name)\" is given twice"
            case .badEscape: return "a parameter is not valid percent-encoded UTF-8"
            }
        }
    }

    /// The canonical text of `parameters`.
    public static func encode(_ parameters: [String: String]) -> String {
        // Escaped as bytes, sorted as bytes, joined into one buffer: one String at the end.
        let pairs = parameters.map {
            (key: escapedBytes(Array($0.key.utf8)), value: escapedBytes(Array($0.value.utf8)))
        }
        .sorted {
            $0.key == $1.key
                ? $0.value.lexicographicallyPrecedes($1.value)
                : $0.key.lexicographicallyPrecedes($1.key)
        }
        var out: [UInt8] = []
        out.reserveCapacity(pairs.reduce(0) { $0 + $1.key.count + $1.value.count + 2 })
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "&")) }
            out += pair.key
            out.append(UInt8(ascii: "="))
            out += pair.value
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `k=v&k=v` text back into parameters.
    ///
    /// A `+` reads as a space, and the last value wins for a repeated key. It is lenient:
    /// for text from an untrusted peer use ``decode(_:maximumCount:)``.
    public static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in pairs(in: Array(text.utf8)) {
            result[String(decoding: unescape(key) ?? key, as: UTF8.self)] =
                String(decoding: unescape(value) ?? value, as: UTF8.self)
        }
        return result
    }

    /// Parses `k=v&k=v` text from an untrusted peer, strictly.
    ///
    /// - Parameters:
    ///   - bytes: The text, as it arrived.
    ///   - maximumCount: The most fields the text may hold, counted before anything is
    ///     decoded.
    /// - Returns: The parameters.
    /// - Throws: ``Problem/tooManyFields(limit:)`` beyond `maximumCount`,
    ///   ``Problem/repeatedName(_:)`` for a name given twice, and ``Problem/badEscape`` for
    ///   an invalid escape or bytes that are not UTF-8.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, maximumCount: Int) throws(Problem) -> [String:
        String]
    {
        var fields = bytes.isEmpty ? 0 : 1
        for byte in bytes where byte == UInt8(ascii: "&") {
            fields += 1
            if fields > maximumCount { throw .tooManyFields(limit: maximumCount) }
        }
        guard fields <= maximumCount else { throw .tooManyFields(limit: maximumCount) }
        var result: [String: String] = [:]
        for (rawKey, rawValue) in pairs(in: Array(bytes)) {
            guard let key = unescape(rawKey).flatMap({ String(validating: $0, as: UTF8.self) }),
                let value = unescape(rawValue).flatMap({ String(validating: $0, as: UTF8.self) })
            else {
                throw .badEscape
            }
            guard result.updateValue(value, forKey: key) == nil else { throw .repeatedName(key) }
        }
        return result
    }

    /// The canonical form of a query string as it arrived, without the `?`.
    ///
    /// Every pair is decoded and encoded again, then the pairs are sorted.
    ///
    /// - Returns: The canonical text, or nil when an escape is invalid.
    public static func canonicalQuery(_ query: String) -> String? {
        var encoded: [(String, String)] = []
        for (rawKey, rawValue) in pairs(in: Array(query.utf8)) {
            guard let key = unescape(rawKey), let value = unescape(rawValue) else { return nil }
            encoded.append((escape(bytes: key), escape(bytes: value)))
        }
        return join(encoded)
    }

    private static func join(_ pairs: [(String, String)]) -> String {
        pairs.sorted {
            $0.0 == $1.0
                ? Array($0.1.utf8).lexicographicallyPrecedes($1.1.utf8)
                : Array($0.0.utf8).lexicographicallyPrecedes($1.0.utf8)
        }
        .map { "\($0.0)=\($0.1)" }
        .joined(separator: "&")
    }

    /// The raw `k=v` pieces of `&`-separated text; a piece without `=` has an empty value.
    private static func pairs(in bytes: [UInt8]) -> [(key: [UInt8], value: [UInt8])] {
        bytes.split(separator: UInt8(ascii: "&")).map { piece in
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                return (Array(piece[..<equals]), Array(piece[(equals + 1)...]))
            }
            return (Array(piece), [])
        }
    }

    static func escape(_ text: String) -> String {
        escape(bytes: Array(text.utf8))
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func escape(bytes: [UInt8]) -> String {
        String(decoding: escapedBytes(bytes), as: UTF8.self)
    }

    private static func escapedBytes(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// Decodes `+` as a space and `%XX` escapes; nil when an escape is broken.
    private static func unescape(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
