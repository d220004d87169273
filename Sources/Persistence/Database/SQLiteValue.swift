import Foundation

/// A value as SQLite stores it.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL's `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Bytes, stored as given.
    case blob(Data)

    /// The integer, or a whole real, or nil.
    public var int64Value: Int64? {
        switch self {
        case .integer(let value): return value
        case .real(let value) where value.rounded() == value && abs(value) < 9.2e18: return Int64(value)
        default: return nil
        }
    }

    /// The value as an `Int`, when it is one.
    public var intValue: Int? { int64Value.map { Int($0) } }

    /// The number, integer or real, or nil.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The text, or nil.
    public var stringValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The bytes, or nil.
    public var dataValue: Data? {
        if case .blob(let data) = self { return data }
        return nil
    }

    /// Whether this is NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByNilLiteral, ExpressibleByBooleanLiteral
{
    /// Text.
    public init(stringLiteral value: String) { self = .text(value) }
    /// An integer.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A real.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// NULL.
    public init(nilLiteral: ()) { self = .null }
    /// 1 or 0.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue: CustomStringConvertible {
    /// A readable form, for messages.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let text): return "'\(text)'"
        case .blob(let data): return "blob(\(data.count) bytes)"
        }
    }
}
