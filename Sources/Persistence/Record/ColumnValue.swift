import Foundation

/// A Swift type a column's value can be read as, by ``Row/value(at:as:)`` and
/// ``Row/value(_:as:)``.
///
/// Numbers, text, bytes and dates conform, as does `Optional` of any of them (NULL reads as
/// nil), and ``SQLiteValue`` itself. They read what the `Codable` path reads: integers
/// from integers or whole reals, `Bool` from an integer (0 is false), `Double` from either
/// kind of number, `Date` from seconds since 1970.
public protocol ColumnValue {
    /// The value `stored` holds as this type, or nil when it holds another kind (or NULL,
    /// for a type that is not optional).
    init?(column stored: SQLiteValue)

    /// The value of the column at `position` of `columns` as this type, or nil when there
    /// is no such column or it holds another kind (or NULL, for a type that is not
    /// optional).
    ///
    /// By default, `init(column:)` of the column's ``SQLiteValue``. The library's own
    /// types read their kind straight from SQLite, with no `SQLiteValue` made.
    init?(_ columns: borrowing ColumnReader, at position: Int)
}

extension ColumnValue {
    /// `init(column:)` of the column's value.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        guard let stored = columns.storedValue(at: position) else { return nil }
        self.init(column: stored)
    }
}

extension Int64: ColumnValue {
    /// The integer, or a whole real.
    @inlinable public init?(column stored: SQLiteValue) {
        if case .integer(let number) = stored {
            self = number
            return
        }
        guard let number = stored.int64Value else { return nil }
        self = number
    }

    /// The integer, or a whole real.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        guard let number = columns.int64(at: position) else { return nil }
        self = number
    }
}

extension Int: ColumnValue {
    /// The integer, or a whole real, when it fits.
    @inlinable public init?(column stored: SQLiteValue) {
        guard let number = Int64(column: stored), let value = Int(exactly: number) else { return nil }
        self = value
    }

    /// The integer, or a whole real, when it fits.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        guard let number = columns.int64(at: position), let value = Int(exactly: number) else { return nil }
        self = value
    }
}

extension Int32: ColumnValue {
    /// The integer, or a whole real, when it fits.
    @inlinable public init?(column stored: SQLiteValue) {
        guard let number = Int64(column: stored), let value = Int32(exactly: number) else { return nil }
        self = value
    }

    /// The integer, or a whole real, when it fits.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        guard let number = columns.int64(at: position), let value = Int32(exactly: number) else { return nil }
        self = value
    }
}

extension Bool: ColumnValue {
    /// An integer: 0 is false, any other true.
    @inlinable public init?(column stored: SQLiteValue) {
        guard let number = Int64(column: stored) else { return nil }
        self = number != 0
    }

    /// An integer: 0 is false, any other true.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        guard let number = columns.int64(at: position) else { return nil }
        self = number != 0
    }
}

extension Double: ColumnValue {
    /// A real, or an integer.
    @inlinable public init?(column stored: SQLiteValue) {
        switch stored {
        case .real(let number): self = number
        case .integer(let number): self = Double(number)
        default: return nil
        }
    }

    /// A real, or an integer.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        guard let number = columns.double(at: position) else { return nil }
        self = number
    }
}

extension String: ColumnValue {
    /// Text.
    @inlinable public init?(column stored: SQLiteValue) {
        guard case .text(let text) = stored else { return nil }
        self = text
    }

    /// Text.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        guard let text = columns.text(at: position) else { return nil }
        self = text
    }
}

extension Data: ColumnValue {
    /// A blob.
    @inlinable public init?(column stored: SQLiteValue) {
        guard case .blob(let data) = stored else { return nil }
        self = data
    }
}

extension Date: ColumnValue {
    /// Seconds since 1970, as a real or an integer.
    @inlinable public init?(column stored: SQLiteValue) {
        guard let seconds = Double(column: stored) else { return nil }
        self.init(timeIntervalSince1970: seconds)
    }

    /// Seconds since 1970, as a real or an integer.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        guard let seconds = columns.double(at: position) else { return nil }
        self.init(timeIntervalSince1970: seconds)
    }
}

extension SQLiteValue: ColumnValue {
    /// The value as it is, NULL included.
    @inlinable public init?(column stored: SQLiteValue) {
        self = stored
    }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
    /// nil for NULL, else the wrapped type's reading of the value.
    @inlinable public init?(column stored: SQLiteValue) {
        if case .null = stored {
            self = .none
            return
        }
        guard let value = Wrapped(column: stored) else { return nil }
        self = .some(value)
    }

    /// nil for NULL, else the wrapped type's reading of the column; nil when there is no
    /// such column.
    @inlinable public init?(_ columns: borrowing ColumnReader, at position: Int) {
        if columns.isNull(at: position) {
            self = .none
            return
        }
        guard let value = Wrapped(columns, at: position) else { return nil }
        self = .some(value)
    }
}

extension Row {
    /// The value of the column at `position` (0 for the first, in the query's order: for
    /// `SELECT *`, the table's), read as `Value`.
    ///
    /// The fastest way to read a fetched row, for a hand-written ``Record/init(row:)``:
    ///
    /// ```swift
    /// init(row: Row) throws {
    ///     id = try row.value(at: 0)
    ///     title = try row.value(at: 1)  // a String?: NULL reads as nil
    /// }
    /// ```
    ///
    /// - Throws: A `DecodingError` naming the column when the row has no column at
    ///   `position` (`keyNotFound`) or its value is not a `Value` (`typeMismatch`, NULL for
    ///   a type that is not optional among them).
    @inlinable
    public func value<Value: ColumnValue>(at position: Int, as type: Value.Type = Value.self) throws -> Value {
        guard position >= 0, position < values.count else { throw noColumn(at: position) }
        guard let value = Value(column: values[position]) else { throw mismatch(Value.self, at: position) }
        return value
    }

    /// The value of the column named exactly `column`, read as `Value`.
    ///
    /// ```swift
    /// price = try row.value("price")  // a Double?
    /// ```
    ///
    /// - Throws: A `DecodingError` naming the column when the row has no such column
    ///   (`keyNotFound`) or its value is not a `Value` (`typeMismatch`, NULL for a type that
    ///   is not optional among them).
    @inlinable
    public func value<Value: ColumnValue>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        guard let position = position(of: column) else { throw noColumn(named: column) }
        guard let value = Value(column: values[position]) else { throw mismatch(Value.self, at: position) }
        return value
    }

    /// The position of the column named exactly `column`, or nil.
    @usableFromInline
    func position(of column: String) -> Int? { index(of: column) }

    @usableFromInline
    func noColumn(at position: Int) -> DecodingError {
        .keyNotFound(
            ColumnKey(intValue: position),
            .init(codingPath: [], debugDescription: "no column at position \(position): the row has \(values.count)"))
    }

    @usableFromInline
    func noColumn(named column: String) -> DecodingError {
        .keyNotFound(ColumnKey(stringValue: column), .init(codingPath: [], debugDescription: "no column \(column)"))
    }

    @usableFromInline
    func mismatch<Value>(_ type: Value.Type, at position: Int) -> DecodingError {
        let key = ColumnKey(stringValue: names[position])
        return .typeMismatch(
            type,
            .init(
                codingPath: [key], debugDescription: "column \(names[position]) holds \(values[position]), not \(type)")
        )
    }
}

/// A column as a coding key, for the errors of ``Row/value(at:as:)``.
struct ColumnKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}
