import Foundation

/// Anything that can turn itself into a row and back can be stored: a "virtual record".
///
/// A record spanning two tables gives each table the columns it owns (`row(for:)` gets
/// the table) and is rebuilt from the merged row. `Codable` types get both for free; a
/// ``ColumnReadable`` record, which reads a fetch's columns in place, is the fastest way
/// to read (see <doc:GettingStarted>).
public protocol Record {
    /// The row to store in `table`; columns `table` does not have are left out.
    func row(for table: any Table) throws -> Row
    /// Rebuilds the record from a row (for a record spanning tables, the merged row).
    ///
    /// A fetch hands each row to it as the row is read; a record may keep the row (a copy
    /// of it). The row is borrowed, so that handing it over costs no reference counting:
    /// an `init(row: Row)` implements this requirement all the same, with a copy of the
    /// row made for it (two retains and releases of its storage a row, about 4% of a
    /// fetch); write `init(row: borrowing Row)` to read it in place.
    init(row: borrowing Row) throws
}

extension Record where Self: Codable {
    /// The encoded properties that `table` has columns for.
    public func row(for table: any Table) throws -> Row {
        let all = try RowEncoder.encode(self)
        var row = Row()
        for column in table.columns { row[column.name] = all[column.name] }
        return row
    }

    /// Decodes the record from `row`.
    @inlinable
    public init(row: borrowing Row) throws {
        self = try RowDecoder.decode(Self.self, from: row)
    }
}

extension Table {
    /// Inserts `record`'s row for this table; returns its rowid.
    @discardableResult
    public func insert(_ record: some Record) throws -> Int64 {
        try insert(try record.row(for: self))
    }

    /// Inserts or updates `record`'s row by `uniqueKey`; returns its rowid.
    @discardableResult
    public func upsert(_ record: some Record, uniqueKey: [String]) throws -> Int64 {
        try upsert(try record.row(for: self), uniqueKey: uniqueKey)
    }

    /// The records whose rows match `condition` (all rows by default).
    ///
    /// Each row is made into a record as it is read, by `R.init(row:)`. A `Codable` record
    /// finds the column of each of its keys by name on the first row only (a
    /// `CodingKeys` enum, as the compiler makes it, is found by its case on later rows,
    /// through one keyed container shared by the fetch's rows); a ``ColumnReadable``
    /// record, read in place with no row made, is the fastest way.
    @inlinable
    public func records<R: Record>(
        _ type: R.Type,
        where condition: String = "1",
        _ parameters: [String: SQLiteValue] = [:],
        orderBy ordering: String? = nil,
        limit: Int? = nil
    ) throws -> [R] {
        // Inlinable, so that the loop appending the records is the caller's, specialized
        // for its record type. One row's storage is reused for the next, and the rows share
        // what a `Codable` record learns about their columns.
        try prepare()
        var records: [R] = []
        try database.readRows(
            selectSQL(where: condition, orderBy: ordering ?? Database.quote(primaryKey), limit: limit),
            named: parameters
        ) { records.append(try R(row: $0)) }
        return records
    }

    /// The records whose rows match `condition` (all rows by default), each read from the
    /// statement's columns in place by ``ColumnReadable/init(columns:)``: no ``Row`` is made.
    @inlinable
    public func records<R: ColumnReadable>(
        _ type: R.Type,
        where condition: String = "1",
        _ parameters: [String: SQLiteValue] = [:],
        orderBy ordering: String? = nil,
        limit: Int? = nil
    ) throws -> [R] {
        // Inlinable for the same reason as the `Record` one: the loop is the caller's.
        try prepare()
        var records: [R] = []
        try database.readColumns(
            selectSQL(where: condition, orderBy: ordering ?? Database.quote(primaryKey), limit: limit),
            named: parameters
        ) { records.append(try R(columns: $0)) }
        return records
    }

    /// The record whose primary key is `key`, or nil.
    public func record<R: Record>(_ type: R.Type, primaryKey key: SQLiteValue) throws -> R? {
        try find(primaryKey: key).map { try R(row: $0) }
    }
}
