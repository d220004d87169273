// What a connection keeps between statements: prepared statements by their exact SQL text
// (`StatementSlot`), and per table its SQL text (`TableText`) and known columns, with the
// calls `Table` makes through them.

import CSQLite
import Foundation

extension Database {
    func prepared(_ sql: String, _ handle: OpaquePointer) throws -> StatementSlot {
        let key = ExactText(sql)
        if let cached = statements[key] { return cached }
        let slot = try preparedAlone(sql, handle)
        // A statement whose rows are being read now is not the one let go of.
        if statements.count >= 64, let victim = statements.first(where: { !$0.value.isRunning }) {
            victim.value.finalize()
            statements[victim.key] = nil
        }
        statements[key] = slot
        return slot
    }

    /// `sql` prepared, not kept by the cache: the caller finalizes it.
    func preparedAlone(_ sql: String, _ handle: OpaquePointer) throws -> StatementSlot {
        var statement: OpaquePointer?
        var rest = ""
        let code = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
            if let tail { rest = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK, let statement else {
            throw Self.error(code: code, handle: handle, context: "cannot prepare \(Self.abbreviate(sql))")
        }
        guard rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) else {
            sqlite3_finalize(statement)
            throw DatabaseError(
                .sqlite(code: SQLITE_MISUSE),
                "one statement at a time: \(Self.abbreviate(sql)) holds more than one")
        }
        return StatementSlot(statement)
    }

    // MARK: - Tables

    /// Runs `prepare` once per table name for this database.
    func prepareTable(named name: String, _ prepare: () throws -> Void) throws {
        try locked {
            let text = tableText(name)
            guard !text.isPrepared else { return }
            try prepare()
            text.isPrepared = true
        }
    }

    func forgetPreparedTables() {
        for text in tableTexts.values { text.isPrepared = false }
    }

    /// Inserts `row` (already checked) into `table`; returns its rowid. The SQL for each
    /// list of columns is made once per table and kept.
    /// `prepare` (the table's own) runs first unless it ran already.
    func insert(_ row: Row, into table: String, prepare: () throws -> Void) throws -> Int64 {
        try lockedThenPublishing {
            let text = tableText(table)
            if !text.isPrepared { try prepare() }
            let insert = text.insert(for: row)
            return try run(insert.sql, kept: &insert.kept) { statement in
                for (position, index) in insert.order.enumerated() {
                    try bind(row.values[index], at: Int32(position + 1), to: statement)
                }
            }.execution.lastInsertRowID
        }
    }

    /// The row of `table` whose `primaryKey` column holds `key`, or nil. `prepare` (the
    /// table's own) runs first unless it ran already.
    func find(in table: String, primaryKey: String, _ key: SQLiteValue, prepare: () throws -> Void) throws -> Row? {
        try lockedThenPublishing {
            let text = tableText(table)
            if !text.isPrepared { try prepare() }
            let find = text.find(primaryKey: primaryKey)
            return try run(find.sql, kept: &find.kept) { try bind(key, at: 1, to: $0) }.rows.first
        }
    }

    /// `table`'s name, quoted for SQL.
    func quotedName(of table: String) -> String {
        locked { tableText(table).quotedName }
    }

    private func tableText(_ table: String) -> TableText {
        if let lastTableText, ExactText.same(lastTableText.name, table) { return lastTableText }
        let key = ExactText(table)
        let text = tableTexts[key] ?? TableText(name: table)
        tableTexts[key] = text
        lastTableText = text
        return text
    }

    /// Throws an error naming the first of `columns` that `table` does not have. The columns
    /// are read from SQLite and kept; they are read again when a name is not among them, so
    /// a column added since is found.
    func checkColumns(_ columns: [String], of table: String) throws {
        try locked {
            let key = ExactText(table)
            let wanted = columns.map(ExactText.init)
            if let known = knownColumns[key], wanted.allSatisfy(known.contains) { return }
            let rows = try fetch("SELECT name FROM pragma_table_info(?)", [.text(table)])
            let known = Set(rows.compactMap { $0["name"]?.stringValue.map(ExactText.init) })
            knownColumns[key] = known
            if let missing = wanted.first(where: { !known.contains($0) }) {
                throw DatabaseError(.sqlite(code: SQLITE_ERROR), "no column \"\(missing.text)\" in table \(table)")
            }
        }
    }
}

/// The SQL text made for one table, kept by its ``Database`` and touched only under its lock.
final class TableText {
    /// The insert statement for one list of columns, in the order a row gave them.
    final class Insert {
        let columns: [String]
        let sql: String
        /// For each `?`, the position of its value in the row.
        let order: [Int]
        var kept: StatementSlot?

        init(columns: [String], sql: String, order: [Int]) {
            self.columns = columns
            self.sql = sql
            self.order = order
        }
    }

    /// The query for a row by its primary key.
    final class FindByKey {
        let primaryKey: String
        let sql: String
        var kept: StatementSlot?

        init(primaryKey: String, sql: String) {
            self.primaryKey = primaryKey
            self.sql = sql
        }
    }

    let name: String
    let quotedName: String
    /// Whether `Table.prepare()` ran for this table on this connection.
    var isPrepared = false
    /// Most recently used first; a few lists at most.
    private var inserts: [Insert] = []
    private var findByKey: FindByKey?

    init(name: String) {
        self.name = name
        quotedName = Database.quote(name)
    }

    /// The insert statement for `row`'s columns.
    func insert(for row: Row) -> Insert {
        if let first = inserts.first, Self.same(first.columns, row) { return first }
        if let index = inserts.firstIndex(where: { Self.same($0.columns, row) }) {
            let found = inserts.remove(at: index)
            inserts.insert(found, at: 0)
            return found
        }
        let columns = row.columns
        // Columns in byte order, so the same columns in any order give the same SQL text
        // (and reuse one prepared statement).
        let order = columns.indices.sorted { ExactText.precedes(columns[$0], columns[$1]) }
        let sql =
            order.isEmpty
            ? "INSERT INTO \(quotedName) DEFAULT VALUES"
            : "INSERT INTO \(quotedName) (\(order.map { Database.quote(columns[$0]) }.joined(separator: ", "))) "
                + "VALUES (\(order.map { _ in "?" }.joined(separator: ", ")))"
        let insert = Insert(columns: columns, sql: sql, order: order)
        inserts.insert(insert, at: 0)
        if inserts.count > 16 { inserts.removeLast() }
        return insert
    }

    /// The query for the row whose `primaryKey` column holds one bound value.
    func find(primaryKey: String) -> FindByKey {
        if let findByKey, ExactText.same(findByKey.primaryKey, primaryKey) { return findByKey }
        let find = FindByKey(
            primaryKey: primaryKey, sql: "SELECT * FROM \(quotedName) WHERE \(Database.quote(primaryKey)) = ?")
        findByKey = find
        return find
    }

    private static func same(_ columns: [String], _ row: Row) -> Bool {
        row.hasNames(columns)
    }
}

/// A prepared statement of the statement cache, and its column names. Held by the cache
/// and by callers that keep it (`TableText`); `statement` is nil once the cache let it go.
/// Touched only under its database's lock.
final class StatementSlot {
    private(set) var statement: OpaquePointer?
    private var names: [String] = []
    /// Whether no two column names hold the same bytes.
    private(set) var namesAreUnique = true
    /// How often SQLite had re-prepared the statement when `names` were read; -1 before.
    private var namesReprepared: Int32 = -1
    /// Whether the statement is stepping now (a query run again while its rows are decoded
    /// must not reset it).
    var isRunning = false

    init(_ statement: OpaquePointer) {
        self.statement = statement
    }

    /// The column names, read again only when SQLite re-prepared the statement (after a
    /// schema change, which may change them). Called after stepping, when they are current.
    func columnNames() -> [String] {
        guard let statement else { return [] }
        let reprepared = sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0)
        if reprepared == namesReprepared { return names }
        names = (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
        namesAreUnique = names.indices.allSatisfy { index in
            !names[..<index].contains { ExactText.same($0, names[index]) }
        }
        namesReprepared = reprepared
        return names
    }

    func finalize() {
        sqlite3_finalize(statement)
        statement = nil
    }
}
