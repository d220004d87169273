import CSQLite
import Foundation

/// The columns of one row, read by position: the row a fetch stands on, handed to
/// ``ColumnReadable/init(columns:)`` for the time of that call only.
///
/// A fetch reads each value straight from SQLite's statement into the type asked for, with
/// no ``Row`` (nor any ``SQLiteValue``) in between. It is noncopyable and lent to the
/// initializer (`borrowing`), so a record cannot keep it, nor send it to another thread:
/// once the initializer returns, the statement moves on to the next row.
///
/// ```swift
/// init(columns: borrowing ColumnReader) throws {
///     id = try columns.value(at: 0)
///     title = try columns.value(at: 1)  // a String?: NULL reads as nil
/// }
/// ```
public struct ColumnReader: ~Copyable {
    /// The column a read of a statement's row found last.
    struct Found {
        var position: Int
        var value: OpaquePointer?
    }

    // Two stored properties rather than an enum of the two: a read of the statement then
    // copies no row out of the reader.
    /// The statement standing on the row, read while its connection is held; or nil.
    private let statement: OpaquePointer?
    /// The statement's column count.
    private let columnCount: Int
    /// Where the statement's reads keep the column found last, for the time of one row.
    private let found: UnsafeMutablePointer<Found>?
    /// The row read, when there is no statement.
    private let row: Row

    /// The columns of the row `statement` stands on (its connection held by the caller);
    /// `found` is the reads' memory of the column found last, forgotten here.
    init(statement: OpaquePointer, found: UnsafeMutablePointer<Found>) {
        self.statement = statement
        columnCount = Int(sqlite3_column_count(statement))
        found.pointee = Found(position: -1, value: nil)
        self.found = found
        row = Row()
    }

    /// The columns of `row`, in its order.
    init(row: borrowing Row) {
        statement = nil
        columnCount = row.values.count
        found = nil
        self.row = copy row
    }

    /// How many columns the row has.
    public var count: Int { columnCount }

    /// The value of the column at `position` (0 for the first, in the query's order: for
    /// `SELECT *`, the table's), read as `Value`.
    ///
    /// It reads what ``Row/value(at:as:)`` reads from the same row.
    ///
    /// - Throws: A `DecodingError` naming the column when the row has no column at
    ///   `position` (`keyNotFound`) or its value is not a `Value` (`typeMismatch`, NULL for
    ///   a type that is not optional among them).
    @inlinable
    public func value<Value: ColumnValue>(at position: Int, as type: Value.Type = Value.self) throws -> Value {
        guard let value = Value(self, at: position) else { throw failure(Value.self, at: position) }
        return value
    }

    // The reads below are what `ColumnValue`'s conformances call. Each finds its column
    // once (`sqlite3_column_value`) and reads it in the kind it holds, as a fetched `Row`
    // would have held it; any position out of range reads as nil.

    /// Whether `position` is a column of the row.
    @usableFromInline
    func contains(_ position: Int) -> Bool { position >= 0 && position < columnCount }

    /// The statement's value of the column at `position`, or nil when there is no such
    /// column (or no statement).
    @inline(__always)
    private func column(_ position: Int) -> OpaquePointer? {
        guard let statement, let found, contains(position) else { return nil }
        if found.pointee.position == position { return found.pointee.value }
        let value = sqlite3_column_value(statement, Int32(position))
        found.pointee = Found(position: position, value: value)
        return value
    }

    /// The row's value at `position`, or nil when there is no such column.
    @inline(__always)
    private func rowValue(_ position: Int) -> SQLiteValue? {
        // Not a `? :` of the two: its `nil` would be the value NULL (a literal `SQLiteValue`).
        guard contains(position) else { return nil }
        return row.values[position]
    }

    /// Whether the column at `position` is NULL (false when there is no such column).
    @usableFromInline
    func isNull(at position: Int) -> Bool {
        if statement != nil {
            guard let value = column(position) else { return false }
            return sqlite3_value_type(value) == SQLITE_NULL
        }
        return rowValue(position)?.isNull ?? false
    }

    /// The integer at `position`, or a whole real there, or nil.
    @usableFromInline
    func int64(at position: Int) -> Int64? {
        if statement != nil {
            guard let value = column(position) else { return nil }
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER: return sqlite3_value_int64(value)
            case SQLITE_FLOAT: return SQLiteValue.real(sqlite3_value_double(value)).int64Value
            default: return nil
            }
        }
        return rowValue(position).flatMap { Int64(column: $0) }
    }

    /// The number at `position`, real or integer, or nil.
    @usableFromInline
    func double(at position: Int) -> Double? {
        if statement != nil {
            guard let value = column(position) else { return nil }
            switch sqlite3_value_type(value) {
            case SQLITE_FLOAT: return sqlite3_value_double(value)
            case SQLITE_INTEGER: return Double(sqlite3_value_int64(value))
            default: return nil
            }
        }
        return rowValue(position).flatMap { Double(column: $0) }
    }

    /// The text at `position`, or nil.
    @usableFromInline
    func text(at position: Int) -> String? {
        if statement != nil {
            guard let value = column(position), sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
            return Database.text(of: value)
        }
        return rowValue(position).flatMap { String(column: $0) }
    }

    /// The value at `position` as SQLite holds it, or nil when there is no such column.
    @usableFromInline
    func storedValue(at position: Int) -> SQLiteValue? {
        if let statement {
            guard contains(position) else { return nil }
            return Database.value(of: statement, at: Int32(position))
        }
        return rowValue(position)
    }

    /// The error of reading `position` as `type`: no such column, or another kind of value.
    @usableFromInline
    func failure<Value>(_ type: Value.Type, at position: Int) -> DecodingError {
        guard let statement else {
            guard contains(position) else { return row.noColumn(at: position) }
            return row.mismatch(type, at: position)
        }
        guard contains(position) else {
            return .keyNotFound(
                ColumnKey(intValue: position),
                .init(codingPath: [], debugDescription: "no column at position \(position): the row has \(count)"))
        }
        let name = sqlite3_column_name(statement, Int32(position)).map { String(cString: $0) } ?? "\(position)"
        let stored = Database.value(of: statement, at: Int32(position))
        return .typeMismatch(
            type,
            .init(
                codingPath: [ColumnKey(stringValue: name)],
                debugDescription: "column \(name) holds \(stored), not \(type)"))
    }
}

/// A record that reads itself from the columns of a row in place, by position: the fastest
/// way to fetch (see <doc:GettingStarted>).
///
/// `Table.records(_:where:_:orderBy:limit:)` hands it each row as SQLite's statement
/// stands on it, so no ``Row`` is made for a fetched record; its `init(row:)` reads a row
/// through the same initializer.
///
/// ```swift
/// struct Listing: ColumnReadable {
///     var id: Int64
///     var title: String?
///
///     init(columns: borrowing ColumnReader) throws {
///         id = try columns.value(at: 0)
///         title = try columns.value(at: 1)
///     }
///
///     func row(for table: any Table) throws -> Row { ["id": .integer(id), "title": title.map { .text($0) } ?? .null] }
/// }
/// ```
public protocol ColumnReadable: Record {
    /// Reads the record from `columns`, which it may read only during this call.
    init(columns: borrowing ColumnReader) throws
}

extension ColumnReadable {
    /// Reads the record from `row`'s columns, by ``init(columns:)``.
    public init(row: borrowing Row) throws {
        try self.init(columns: ColumnReader(row: row))
    }
}

extension ColumnReadable where Self: Codable {
    /// Reads the record from `row`'s columns, by ``init(columns:)``: a `Codable` record
    /// that reads its columns in place reads a row the same way, not by `Decodable`.
    public init(row: borrowing Row) throws {
        try self.init(columns: ColumnReader(row: row))
    }
}
