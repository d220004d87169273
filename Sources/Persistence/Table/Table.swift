import Foundation
import Signals

/// The storage type of a column.
public enum ColumnType: String, Sendable {
    /// Whole numbers (and dates as seconds, when a record says so).
    case integer = "INTEGER"
    /// Floating-point numbers (dates by default).
    case real = "REAL"
    /// Text.
    case text = "TEXT"
    /// Bytes.
    case blob = "BLOB"
}

/// One column of a table.
public struct Column: Sendable, Equatable {
    /// The name (any characters; it is always quoted).
    public let name: String
    /// The storage type.
    public let type: ColumnType
    /// Whether NULL is refused.
    public let isNotNull: Bool
    /// Whether values must be unique.
    public let isUnique: Bool

    /// Describes a column.
    public init(_ name: String, _ type: ColumnType, notNull: Bool = false, unique: Bool = false) {
        self.name = name
        self.type = type
        self.isNotNull = notNull
        self.isUnique = unique
    }
}

/// An index of a table.
public struct TableIndex: Sendable, Equatable {
    /// The index name.
    public let name: String
    /// The indexed columns, in order.
    public let columns: [String]
    /// Whether the indexed values must be unique (an upsert key).
    public let isUnique: Bool

    /// Describes an index.
    public init(_ name: String, on columns: [String], unique: Bool = false) {
        self.name = name
        self.columns = columns
        self.isUnique = unique
    }
}

/// One SQLite table with weak logic: what it holds and the checks rows must pass.
///
/// It is created on first use; every operation binds its values. Table and column names are
/// compared by their exact UTF-8 bytes, as SQLite compares them. A column the table does
/// not have is an error naming it, whether passed by name or double-quoted in a condition
/// (SQLite never reads `"colour"` as the text 'colour').
///
/// ```swift
/// struct FavoriteTable: Table {
///     let database: Database
///     let name = "favorite"
///     let primaryKey = "id"
///     let columns = [Column("id", .integer), Column("listing_id", .text, notNull: true, unique: true),
///                    Column("title", .text), Column("saved_at", .real)]
///     let indexes = [TableIndex("favorite_saved_at", on: ["saved_at"])]
/// }
/// let favorites = FavoriteTable(database: DatabaseRegistry.shared.database(at: path))
/// try favorites.insert(["listing_id": "r-12", "title": "Loft", "saved_at": .real(Date().timeIntervalSince1970)])
/// let recent = try favorites.find(where: "saved_at > :since", ["since": 0], orderBy: "saved_at DESC")
/// ```
public protocol Table: Sendable {
    /// The database the table lives in.
    var database: Database { get }
    /// The table name (any characters; it is always quoted).
    var name: String { get }
    /// The columns, the primary key among them.
    var columns: [Column] { get }
    /// The primary key column; an `.integer` key is the rowid.
    var primaryKey: String { get }
    /// Indexes, created with the table.
    var indexes: [TableIndex] { get }
    /// Checks a row before it is inserted or updated; throw `DatabaseError(.invalidRecord, ...)`
    /// to refuse it.
    func check(_ row: Row) throws
}

extension Table {
    /// No indexes.
    public var indexes: [TableIndex] { [] }
    /// Every row passes.
    public func check(_ row: Row) throws {}

    private var quotedName: String { database.quotedName(of: name) }

    /// Creates the table and its indexes if they do not exist.
    ///
    /// It also checks that an existing table has the declared columns. Every operation
    /// calls it first; it runs once.
    public func prepare() throws {
        try database.prepareTable(named: name) {
            let definitions = columns.map { column -> String in
                var text = "\(Database.quote(column.name)) \(column.type.rawValue)"
                if ExactText(column.name) == ExactText(primaryKey) { text += " PRIMARY KEY" }
                if column.isNotNull { text += " NOT NULL" }
                if column.isUnique { text += " UNIQUE" }
                return text
            }
            try database.execute("CREATE TABLE IF NOT EXISTS \(quotedName) (\(definitions.joined(separator: ", ")))")
            let existing = try database.fetch("SELECT name, type FROM pragma_table_info(?)", [.text(name)])
            var types: [ExactText: String] = [:]
            for row in existing {
                if let column = row["name"]?.stringValue {
                    types[ExactText(column)] = row["type"]?.stringValue?.uppercased() ?? ""
                }
            }
            for column in columns {
                guard let type = types[ExactText(column.name)] else {
                    throw DatabaseError(
                        .schemaMismatch,
                        "table \(name) in \(database.path) has no column \(column.name); migrate it first")
                }
                guard type == column.type.rawValue || type.isEmpty else {
                    throw DatabaseError(
                        .schemaMismatch,
                        "column \(name).\(column.name) is \(type), expected \(column.type.rawValue)")
                }
            }
            for index in indexes {
                let unique = index.isUnique ? "UNIQUE " : ""
                let list = index.columns.map(Database.quote).joined(separator: ", ")
                try database.execute(
                    "CREATE \(unique)INDEX IF NOT EXISTS \(Database.quote(index.name)) ON \(quotedName) (\(list))")
            }
        }
    }

    /// The committed changes of this table.
    ///
    /// See `Database.changes(of:)`. To keep a value
    /// in sync with the rows, use ``observe(_:)``, which cannot miss a commit.
    public var changes: Signal<TableChange> {
        database.changes(of: name)
    }

    // MARK: - Insert

    /// Inserts `row` (columns not named by the table, and NaN, are refused); returns its rowid.
    @discardableResult
    public func insert(_ row: Row) throws -> Int64 {
        try validate(row)
        return try database.insert(row, into: name, prepare: prepare)
    }

    /// Inserts every row in one transaction: all or none. Returns their rowids.
    @discardableResult
    public func insert(_ rows: [Row]) throws -> [Int64] {
        try prepare()
        return try database.transaction(.immediate) { _ in try rows.map { try insert($0) } }
    }

    /// Inserts `row`, or updates the row that has the same values in `uniqueKey` (which
    /// must be the primary key, a unique column or a unique index). Returns the rowid.
    @discardableResult
    public func upsert(_ row: Row, uniqueKey: [String]) throws -> Int64 {
        try prepare()
        try validate(row)
        try database.checkColumns(uniqueKey, of: name)
        let names = Self.sortedColumns(of: row)
        let keyColumns = Set(uniqueKey.map(ExactText.init))
        let updates = names.filter { !keyColumns.contains(ExactText($0)) }
            .map { "\(Database.quote($0)) = excluded.\(Database.quote($0))" }
        let conflict = uniqueKey.map(Database.quote).joined(separator: ", ")
        let action = updates.isEmpty ? "DO NOTHING" : "DO UPDATE SET \(updates.joined(separator: ", "))"
        let sql =
            "INSERT INTO \(quotedName) (\(names.map(Database.quote).joined(separator: ", "))) "
            + "VALUES (\(names.map { _ in "?" }.joined(separator: ", "))) ON CONFLICT (\(conflict)) \(action)"
        return try database.transaction(.immediate) { database in
            try database.execute(sql, names.map { row[$0] ?? .null })
            let key = uniqueKey.map { "\(Database.quote($0)) = ?" }.joined(separator: " AND ")
            let found = try database.fetch(
                "SELECT rowid AS rowid FROM \(quotedName) WHERE \(key)", uniqueKey.map { row[$0] ?? .null })
            return found.first?["rowid"]?.int64Value ?? 0
        }
    }

    // MARK: - Find

    /// The row whose primary key is `key`, or nil.
    public func find(primaryKey key: SQLiteValue) throws -> Row? {
        try database.find(in: name, primaryKey: primaryKey, key, prepare: prepare)
    }

    /// The rows matching `condition`, SQL with `:name` parameters bound from `parameters`.
    public func find(
        where condition: String,
        _ parameters: [String: SQLiteValue] = [:],
        orderBy ordering: String? = nil,
        limit: Int? = nil
    ) throws -> [Row] {
        try prepare()
        return try database.fetch(selectSQL(where: condition, orderBy: ordering, limit: limit), named: parameters)
    }

    /// The query `find(where:_:orderBy:limit:)` runs.
    @usableFromInline
    func selectSQL(where condition: String, orderBy ordering: String?, limit: Int?) -> String {
        var sql = "SELECT * FROM \(quotedName) WHERE \(condition)"
        if let ordering { sql += " ORDER BY \(ordering)" }
        if let limit { sql += " LIMIT \(max(0, limit))" }
        return sql
    }

    /// Every row, in `ordering` (SQL) or by primary key.
    public func findAll(orderBy ordering: String? = nil, limit: Int? = nil) throws -> [Row] {
        try find(where: "1", orderBy: ordering ?? Database.quote(primaryKey), limit: limit)
    }

    /// The first row matching `condition`, or nil.
    public func first(
        where condition: String = "1", _ parameters: [String: SQLiteValue] = [:],
        orderBy ordering: String? = nil
    ) throws -> Row? {
        try find(where: condition, parameters, orderBy: ordering ?? Database.quote(primaryKey), limit: 1).first
    }

    /// How many rows match `condition` (all rows by default).
    public func count(where condition: String = "1", _ parameters: [String: SQLiteValue] = [:]) throws -> Int {
        try prepare()
        let rows = try database.fetch("SELECT count(*) AS n FROM \(quotedName) WHERE \(condition)", named: parameters)
        return rows.first?["n"]?.intValue ?? 0
    }

    /// The rows whose `column` holds one of `values`; a column the table does not have is
    /// an error naming it.
    public func find(_ column: String, in values: [SQLiteValue]) throws -> [Row] {
        try prepare()
        try database.checkColumns([column], of: name)
        guard !values.isEmpty else { return [] }
        let marks = values.map { _ in "?" }.joined(separator: ", ")
        return try database.fetch(
            "SELECT * FROM \(quotedName) WHERE \(Database.quote(column)) IN (\(marks)) "
                + "ORDER BY \(Database.quote(primaryKey))", values)
    }

    // MARK: - Update and delete

    /// Sets `values` on the rows matching `condition`; returns how many changed.
    @discardableResult
    public func update(_ values: Row, where condition: String, _ parameters: [String: SQLiteValue] = [:]) throws -> Int
    {
        try prepare()
        try validate(values)
        guard !values.isEmpty else { return 0 }
        var bindings = parameters
        let assignments = Self.sortedColumns(of: values).enumerated().map { offset, column -> String in
            bindings["__set\(offset)"] = values[column] ?? .null
            return "\(Database.quote(column)) = :__set\(offset)"
        }
        let sql = "UPDATE \(quotedName) SET \(assignments.joined(separator: ", ")) WHERE \(condition)"
        return try database.execute(sql, named: bindings).changes
    }

    /// Sets `values` on the row whose primary key is `key`; returns whether it existed.
    @discardableResult
    public func update(primaryKey key: SQLiteValue, _ values: Row) throws -> Bool {
        try update(values, where: "\(Database.quote(primaryKey)) = :__key", ["__key": key]) > 0
    }

    /// Deletes the rows matching `condition`; returns how many.
    @discardableResult
    public func delete(where condition: String, _ parameters: [String: SQLiteValue] = [:]) throws -> Int {
        try prepare()
        return try database.execute("DELETE FROM \(quotedName) WHERE \(condition)", named: parameters).changes
    }

    /// Deletes the row whose primary key is `key`; returns whether it existed.
    @discardableResult
    public func delete(primaryKey key: SQLiteValue) throws -> Bool {
        try delete(where: "\(Database.quote(primaryKey)) = :__key", ["__key": key]) > 0
    }

    /// Deletes every row.
    public func truncate() throws {
        try prepare()
        try database.transaction(.immediate) { database in
            try database.execute("DELETE FROM \(quotedName)")
            database.noteTruncated(name)
        }
    }

    private func validate(_ row: Row) throws {
        let columns = self.columns
        let unknown: String?
        if columns.count <= 16 {
            // A few columns: scanning them beats building a set on every call. Each scan
            // starts after the column the last name matched, as rows mostly follow the
            // declared order.
            var start = 0
            unknown = row.names.first { name in
                for step in 0..<columns.count {
                    let index = (start + step) % columns.count
                    if ExactText.same(columns[index].name, name) {
                        start = index + 1
                        return false
                    }
                }
                return true
            }
        } else {
            let known = Set(columns.map { ExactText($0.name) })
            unknown = row.names.first { !known.contains(ExactText($0)) }
        }
        if let unknown {
            throw DatabaseError(.invalidRecord, "table \(name) has no column \(unknown)")
        }
        for (index, value) in row.values.enumerated() {
            if case .real(let number) = value, number.isNaN {
                let column = row.names[index]
                throw DatabaseError(
                    .invalidRecord,
                    "\(name).\(column) is NaN, which SQLite cannot store (it would keep NULL)")
            }
        }
        try check(row)
    }

    /// The row's column names in byte order, so the same columns always give the same SQL
    /// text (and reuse its prepared statement).
    private static func sortedColumns(of row: Row) -> [String] {
        row.columns.sorted { ExactText($0) < ExactText($1) }
    }
}
