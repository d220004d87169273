// Running SQL: `execute` and `fetch`, binding values, reading rows, and quoting names.

import CSQLite
import Foundation

/// What a statement did.
public struct Execution: Sendable, Equatable {
    /// The rowid of the last row inserted by this connection.
    public let lastInsertRowID: Int64
    /// The rows the statement inserted, updated or deleted.
    public let changes: Int
}

extension Database {
    /// Runs one statement with positional (`?`) bindings.
    @discardableResult
    public func execute(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> Execution {
        defer { publishChanges() }
        return try run(sql, positional: bindings, named: nil).execution
    }

    /// Runs one statement with named (`:name`) bindings.
    @discardableResult
    public func execute(_ sql: String, named bindings: [String: SQLiteValue]) throws -> Execution {
        defer { publishChanges() }
        return try run(sql, positional: [], named: bindings).execution
    }

    /// The rows of a query with positional (`?`) bindings.
    public func fetch(_ sql: String, _ bindings: [SQLiteValue] = []) throws -> [Row] {
        defer { publishChanges() }
        return try run(sql, positional: bindings, named: nil).rows
    }

    /// The rows of a query with named (`:name`) bindings.
    public func fetch(_ sql: String, named bindings: [String: SQLiteValue]) throws -> [Row] {
        defer { publishChanges() }
        return try run(sql, positional: [], named: bindings).rows
    }

    /// Quotes `identifier` (a table or column name) for SQL, whatever characters it holds.
    ///
    /// Every `"` byte is doubled, so a quote followed by a combining mark is escaped too.
    public static func quote(_ identifier: String) -> String {
        let quote = UInt8(ascii: "\"")
        var quotes = 0
        for byte in identifier.utf8 where byte == quote { quotes += 1 }
        return String(unsafeUninitializedCapacity: identifier.utf8.count + quotes + 2) { buffer in
            var end = 0
            buffer[end] = quote
            end += 1
            for byte in identifier.utf8 {
                buffer[end] = byte
                end += 1
                if byte == quote {
                    buffer[end] = quote
                    end += 1
                }
            }
            buffer[end] = quote
            return end + 1
        }
    }

    @discardableResult
    func run(
        _ sql: String,
        positional: [SQLiteValue],
        named: [String: SQLiteValue]?,
        control: Bool = false
    ) throws -> (rows: [Row], execution: Execution) {
        try locked {
            var kept: StatementSlot?
            return try run(sql, kept: &kept, control: control) { statement in
                try bind(positional: positional, named: named, to: statement, sql: sql)
            }
        }
    }

    /// Runs `sql`, its values bound by `bindValues`; called holding `lock`. `kept` keeps the
    /// prepared statement for its caller, so the SQL text need not be looked up again while
    /// the statement cache holds it.
    func run(
        _ sql: String,
        kept: inout StatementSlot?,
        control: Bool = false,
        bindValues: (OpaquePointer) throws -> Void
    ) throws -> (rows: [Row], execution: Execution) {
        var rows: [Row] = []
        let execution = try forEachRow(sql, kept: &kept, control: control, bindValues: bindValues) {
            rows.append($0)
        }
        return (rows, execution)
    }

    /// Runs a query with named (`:name`) bindings, giving each row to `body` as it is read
    /// (holding the connection): how `Table.records` makes each row into a record.
    ///
    /// The rows `body` is given share one plan (see `RowDecoder`), and one row's storage is
    /// refilled for the next unless `body` kept a copy of it.
    @usableFromInline
    func readRows(_ sql: String, named bindings: [String: SQLiteValue], _ body: (Row) throws -> Void) throws {
        defer { publishChanges() }
        try locked {
            var kept: StatementSlot?
            _ = try forEachRow(
                sql, kept: &kept,
                bindValues: { try bind(positional: [], named: bindings, to: $0, sql: sql) },
                planned: true, body)
        }
    }

    /// Runs a query with named (`:name`) bindings, giving `body` the columns of each row as
    /// the statement stands on it (holding the connection): how `Table.records` reads a
    /// `ColumnReadable` record, with no `Row` made.
    @usableFromInline
    func readColumns(
        _ sql: String, named bindings: [String: SQLiteValue], _ body: (borrowing ColumnReader) throws -> Void
    ) throws {
        defer { publishChanges() }
        try locked {
            var kept: StatementSlot?
            // The column a read found last, shared by the rows' readers: an optional value
            // asks whether its column is NULL, then reads it, finding it once.
            let found = UnsafeMutablePointer<ColumnReader.Found>.allocate(capacity: 1)
            defer { found.deallocate() }
            _ = try step(sql, kept: &kept, bindValues: { try bind(positional: [], named: bindings, to: $0, sql: sql) })
            {
                try body(ColumnReader(statement: $0, found: found))
            }
        }
    }

    /// Runs `sql` as `run(_:kept:control:bindValues:)` does, giving each row to `body` as it
    /// is read. With `planned`, the rows share a `RowDecoder.Plan`, and one row's storage is
    /// reused for the next unless a copy of it is kept.
    func forEachRow(
        _ sql: String,
        kept: inout StatementSlot?,
        control: Bool = false,
        bindValues: (OpaquePointer) throws -> Void,
        planned: Bool = false,
        _ body: (Row) throws -> Void
    ) throws -> Execution {
        if transactionDepth > 0 && !control { try ensureNotAborted() }
        let handle = try connection()
        var slot: StatementSlot
        if let kept, kept.statement != nil {
            slot = kept
        } else {
            slot = try prepared(sql, handle)
            kept = slot
        }
        // A statement already running (a query made again while its own rows are being
        // decoded) runs as a statement of its own, not reset under its first run.
        var own: StatementSlot?
        if slot.isRunning {
            slot = try preparedAlone(sql, handle)
            own = slot
        }
        defer { own?.finalize() }
        guard let statement = slot.statement else {
            throw DatabaseError(.sqlite(code: SQLITE_MISUSE), "cannot run \(Self.abbreviate(sql)): no statement")
        }
        slot.isRunning = true
        defer {
            slot.isRunning = false
            sqlite3_reset(statement)
            // Every run binds every parameter, so old values need not be cleared;
            // only big ones are let go of, not to keep their copies alive.
            if boundLargeValue {
                sqlite3_clear_bindings(statement)
                boundLargeValue = false
            }
        }
        try bindValues(statement)
        markChanges()
        // Column names are read at the first row: a statement re-prepared after a schema
        // change only knows its new columns then, and SQLite re-prepares a statement only
        // as it starts.
        var columnNames: [String]?
        var row = Row()
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(code, of: statement, sql, handle) }
            if planned, columnNames != nil, slot.namesAreUnique {
                // The row before's names: its values are replaced, in place unless the row
                // before was kept.
                row.refill { Self.value(of: statement, at: $0) }
            } else {
                let names = columnNames ?? slot.columnNames()
                columnNames = names
                if slot.namesAreUnique {
                    // The rows share the statement's names; each is one array of values.
                    var values: [SQLiteValue] = []
                    values.reserveCapacity(names.count)
                    for index in names.indices { values.append(Self.value(of: statement, at: Int32(index))) }
                    row = Row(uniqueNames: names, values: values, plan: planned ? RowDecoder.Plan() : nil)
                } else {
                    row = Row()
                    for (index, name) in names.enumerated() { row[name] = Self.value(of: statement, at: Int32(index)) }
                }
            }
            try body(row)
        }
        return Execution(
            lastInsertRowID: sqlite3_last_insert_rowid(handle),
            changes: Int(sqlite3_changes(handle)))
    }

    /// Runs `sql` as `forEachRow` does, calling `body` with the statement standing on each
    /// row in turn, with no `Row` made.
    // Its run of the statement is `forEachRow`'s again on purpose: `forEachRow` built on
    // this loop (its rows made in `body`) cost `persistence-bench` 3.5% more instructions
    // in fetch-codable and 5% in fetch-rows (callgrind, scale 0.2).
    // Inlined into its caller, so that the caller's `body` is inlined into the loop.
    @inline(__always)
    private func step(
        _ sql: String,
        kept: inout StatementSlot?,
        control: Bool = false,
        bindValues: (OpaquePointer) throws -> Void,
        _ body: (OpaquePointer) throws -> Void
    ) throws -> Execution {
        if transactionDepth > 0 && !control { try ensureNotAborted() }
        let handle = try connection()
        var slot: StatementSlot
        if let kept, kept.statement != nil {
            slot = kept
        } else {
            slot = try prepared(sql, handle)
            kept = slot
        }
        // A statement already running (a query made again while its own rows are being
        // decoded) runs as a statement of its own, not reset under its first run.
        var own: StatementSlot?
        if slot.isRunning {
            slot = try preparedAlone(sql, handle)
            own = slot
        }
        defer { own?.finalize() }
        guard let statement = slot.statement else {
            throw DatabaseError(.sqlite(code: SQLITE_MISUSE), "cannot run \(Self.abbreviate(sql)): no statement")
        }
        slot.isRunning = true
        defer {
            slot.isRunning = false
            sqlite3_reset(statement)
            // Every run binds every parameter, so old values need not be cleared;
            // only big ones are let go of, not to keep their copies alive.
            if boundLargeValue {
                sqlite3_clear_bindings(statement)
                boundLargeValue = false
            }
        }
        try bindValues(statement)
        markChanges()
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(code, of: statement, sql, handle) }
            try body(statement)
        }
        return Execution(
            lastInsertRowID: sqlite3_last_insert_rowid(handle),
            changes: Int(sqlite3_changes(handle)))
    }

    /// The error of a step that returned `code`, neither a row nor done; what the statement
    /// recorded is forgotten first.
    private func failure(_ code: Int32, of statement: OpaquePointer, _ sql: String, _ handle: OpaquePointer)
        -> DatabaseError
    {
        // A read records nothing, and the marks may be those of a write made while its rows
        // were read (by a record's `init(row:)`), whose changes stand.
        if sqlite3_stmt_readonly(statement) == 0 { dropStatementChanges() }
        if transactionDepth > 0 && sqlite3_get_autocommit(handle) != 0 { transactionAborted = true }
        if code & 0xff == SQLITE_READONLY {
            return DatabaseError(.readOnly, "the database \(path) is read-only; nothing was written")
        }
        return Self.error(code: code, handle: handle, context: "cannot run \(Self.abbreviate(sql))")
    }

    private func bind(
        positional: [SQLiteValue], named: [String: SQLiteValue]?, to statement: OpaquePointer, sql: String
    ) throws {
        let expected = Int(sqlite3_bind_parameter_count(statement))
        if let named {
            for index in 1...max(1, expected) where index <= expected {
                guard let rawName = sqlite3_bind_parameter_name(statement, Int32(index)) else {
                    throw DatabaseError(
                        .sqlite(code: SQLITE_MISUSE), "\(Self.abbreviate(sql)) mixes ? and named parameters")
                }
                // Looked up by exact name (`:café` is not `:cafe\u{301}`), by scanning: a
                // statement has a few parameters, and hashing every key would cost more.
                let name = rawName + 1
                let length = strlen(name)
                var found: SQLiteValue?
                for (key, value) in named where key.utf8.count == length {
                    let same =
                        key.utf8.withContiguousStorageIfAvailable { bytes in
                            bytes.baseAddress.map { memcmp($0, name, length) == 0 } ?? true
                        } ?? ExactText.same(key, String(cString: name))
                    if same {
                        found = value
                        break
                    }
                }
                guard let value = found else {
                    throw DatabaseError(
                        .sqlite(code: SQLITE_MISUSE),
                        "no value for :\(String(cString: name)) in \(Self.abbreviate(sql))")
                }
                try bind(value, at: Int32(index), to: statement)
            }
        } else {
            guard positional.count == expected else {
                throw DatabaseError(
                    .sqlite(code: SQLITE_MISUSE),
                    "\(Self.abbreviate(sql)) takes \(expected) values, \(positional.count) given")
            }
            for (offset, value) in positional.enumerated() { try bind(value, at: Int32(offset + 1), to: statement) }
        }
    }

    func bind(_ value: SQLiteValue, at index: Int32, to statement: OpaquePointer) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(statement, index)
        case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
        case .real(let number):
            // SQLite has no NaN: it would quietly keep NULL instead.
            guard !number.isNaN else {
                throw DatabaseError(
                    .invalidRecord,
                    "value \(index) is NaN, which SQLite cannot store (it would keep NULL); nothing was written")
            }
            code = sqlite3_bind_double(statement, index, number)
        case .text(let text):
            // Bound by byte count, so text holding NUL characters is stored whole.
            var utf8 = text
            if text.utf8.count > 4_096 { boundLargeValue = true }
            code = try utf8.withUTF8 { bytes -> Int32 in
                guard bytes.count <= Int32.max else {
                    throw DatabaseError(.invalidRecord, "text of \(bytes.count) bytes is too long")
                }
                guard let base = bytes.baseAddress else {
                    return sqlite3_bind_text(statement, index, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(statement, index, $0, Int32(bytes.count), csqlite_transient())
                }
            }
        case .blob(let data):
            guard data.count <= Int32.max else {
                throw DatabaseError(.invalidRecord, "a blob of \(data.count) bytes is too large")
            }
            if data.count > 4_096 { boundLargeValue = true }
            code = data.withUnsafeBytes { bytes in
                if bytes.count == 0 { return sqlite3_bind_zeroblob(statement, index, 0) }
                return sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else {
            throw Self.error(code: code, handle: nil, context: "cannot bind value \(index)")
        }
    }

    /// The value of the column at `index` of the row `statement` stands on.
    static func value(of statement: OpaquePointer, at index: Int32) -> SQLiteValue {
        // The column is found once and read through its value: each `sqlite3_column_*`
        // call would find it again. The value is read at once, holding the connection (the
        // connection's own lock, as `sqlite3_column_value` asks of its callers).
        guard let value = sqlite3_column_value(statement, index) else { return .null }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT: return .text(text(of: value))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_value_blob(value) else { return .blob(Data()) }
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    /// The text of a column's `value`, which holds text.
    static func text(of value: OpaquePointer) -> String {
        // The text first, then its length, as SQLite documents the order.
        guard let text = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        guard count > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    static func abbreviate(_ sql: String) -> String {
        let flat = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
    }
}
