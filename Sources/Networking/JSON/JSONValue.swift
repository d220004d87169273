import Foundation

/// Raw API data as it came off the wire: the manager keeps it, reformers read it.
///
/// No model types are built for responses; a reformer turns this into what a view needs.
public enum JSONValue: Sendable, Hashable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, whole or not, since JSON does not tell integers apart.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, its elements in order.
    case array([JSONValue])
    /// An object, whose member names compare by Unicode scalars (see ``JSONObject``).
    case object(JSONObject)

    /// The value under the member named exactly `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array, or nil when out of range.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string, or nil for any other kind.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number, or nil for any other kind.
    public var doubleValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The number as an integer when it is whole and in range, or nil.
    public var intValue: Int? {
        guard case .number(let number) = self, number.rounded() == number,
            number >= -9.0e15, number <= 9.0e15
        else { return nil }
        return Int(number)
    }

    /// The Boolean, or nil for any other kind.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements, or nil for any other kind.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, or nil for any other kind.
    public var objectValue: JSONObject? {
        if case .object(let members) = self { return members }
        return nil
    }
}

/// Why bytes could not be read as JSON.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    /// What was wrong, for logs and error messages.
    public let description: String
}

extension JSONValue {
    /// Parses `data`, any JSON text including a bare scalar, strictly.
    ///
    /// The parser follows RFC 8259 strictly: it rejects trailing commas, comments, leading
    /// zeros, lone surrogates and invalid UTF-8, and limits nesting to 128 levels so hostile
    /// input cannot exhaust the stack.
    ///
    /// - Throws: ``JSONParseError``, saying what is wrong and at which byte.
    public init(parsing data: Data) throws {
        self = try JSONParser.parse(data)
    }

    /// Compact JSON text, with keys sorted by their Unicode scalars.
    ///
    /// Equal values encode to equal bytes.
    public func encoded() -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(to: &bytes)
        return Data(bytes)
    }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let flag): bytes += (flag ? "true" : "false").utf8
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 {
                bytes += String(Int64(number)).utf8
            } else if number.isFinite {
                bytes += "\(number)".utf8
            } else {
                bytes += "null".utf8
            }
        case .string(let string): JSONValue.writeString(string, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.sortedMembers.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.name, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Writes `string` quoted, byte by byte: UTF-8 passes through, and only the quote,
    /// the backslash and control characters are escaped.
    private static func writeString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += #"\""#.utf8
            case UInt8(ascii: "\\"): bytes += #"\\"#.utf8
            case 0x0A: bytes += #"\n"#.utf8
            case 0x0D: bytes += #"\r"#.utf8
            case 0x09: bytes += #"\t"#.utf8
            case 0..<0x20:
                bytes += #"\u00"#.utf8
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object.
    ///
    /// A name given twice keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(members: elements))
    }
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
}
