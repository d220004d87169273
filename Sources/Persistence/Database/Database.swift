import CSQLite
import Foundation
import Signals

/// How a transaction takes its locks.
public enum TransactionKind: String, Sendable {
    /// Takes locks when the first statement needs them.
    case deferred = "DEFERRED"
    /// Takes the write lock at once.
    case immediate = "IMMEDIATE"
    /// Takes the write lock at once and keeps readers of other connections out.
    case exclusive = "EXCLUSIVE"
}

/// What a statement did.
public struct Execution: Sendable, Equatable {
    /// The rowid of the last row inserted by this connection.
    public let lastInsertRowID: Int64
    /// The rows the statement inserted, updated or deleted.
    public let changes: Int
}

/// The rows of a table that one committed change touched.
public struct TableChange: Sendable, Equatable {
    /// The table.
    public let table: String
    /// Rowids inserted.
    public var inserted: [Int64] = []
    /// Rowids updated.
    public var updated: [Int64] = []
    /// Rowids deleted.
    public var deleted: [Int64] = []
    /// Whether the table was truncated.
    public var truncated = false

    /// An empty change of `table`.
    public init(table: String) {
        self.table = table
    }

    /// Whether both changes are of the same table (its name compared by its exact bytes,
    /// as SQLite does) and touched the same rows.
    public static func == (lhs: TableChange, rhs: TableChange) -> Bool {
        ExactText(lhs.table) == ExactText(rhs.table) && lhs.inserted == rhs.inserted && lhs.updated == rhs.updated
            && lhs.deleted == rhs.deleted && lhs.truncated == rhs.truncated
    }
}

/// One SQLite database file behind one serialized connection, opened on first use.
///
/// Safe from any thread: every use of the connection is serialized (a transaction holds
/// it for its whole body, so other threads wait). Get one per file from `DatabasePool`.
/// Values are always bound (`sqlite3_bind_*`), never spliced into SQL. SQL text, table and
/// column names and parameter names are compared by their exact UTF-8 bytes, as SQLite
/// compares them, never by Swift's canonical equivalence. A double-quoted name is always a
/// name: one that is no column is an error, never the string literal SQLite's legacy mode
/// would make it. NaN, which SQLite would quietly store as NULL, is refused before anything
/// runs.
///
/// A database whose file or folder is write-protected (not writable by this process, or
/// without any write permission bit, which counts even for root) opens read-only: reads
/// work, and writes fail with `.readOnly`, saying so. Unless a journal or write-ahead log
/// waits beside it, the file is then read as it is on disk, assuming no one changes it
/// meanwhile, and nothing is created beside it. A missing folder is never created:
/// opening fails, naming it.
///
/// ```swift
/// let database = DatabasePool.shared.database(at: "/tmp/homes.sqlite")
/// try database.execute("CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, text TEXT)")
/// try database.execute("INSERT INTO note (text) VALUES (?)", ["it's \"quoted\"; DROP TABLE note"])
/// let rows = try database.fetch("SELECT text FROM note WHERE id = :id", named: ["id": 1])
/// ```
// Safe to share: the connection and every cache are touched only under the recursive `lock`.
public final class Database: @unchecked Sendable {
    /// The file path.
    public let path: String
    private let lock = NSRecursiveLock()
    private var handle: OpaquePointer?
    /// Prepared statements by their exact SQL text.
    private var statements: [ExactText: OpaquePointer] = [:]
    private var transactionDepth = 0
    /// Set when SQLite rolled the open transaction back by itself (ON CONFLICT ROLLBACK,
    /// a trigger, a full disk): every statement then fails until the transaction unwinds.
    private var transactionAborted = false
    /// How many frames of the thread holding `lock` hold it; observers are only told
    /// of changes by the outermost frame, never while the lock is held.
    private var heldDepth = 0
    private var preparedTables: Set<ExactText> = []
    /// The columns each table had when last looked at (see `checkColumns`).
    private var knownColumns: [ExactText: Set<ExactText>] = [:]
    /// Changes of the statement running now; kept only if it succeeds.
    private var statementChanges: [ExactText: TableChange] = [:]
    /// Changes of the open transaction; kept only if it commits.
    private var transactionChanges: [ExactText: TableChange] = [:]
    /// Committed changes not yet sent to observers.
    private var readyChanges: [ExactText: TableChange] = [:]
    private var observers: [ExactText: (output: Signal<TableChange>, input: Signal<TableChange>.Input)] = [:]

    /// A database at `path`; nothing is opened until first use. Prefer `DatabasePool`.
    public init(path: String) {
        self.path = path
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Closes the connection now, unless a transaction is open on it; a transaction on
    /// another thread is waited for. The next use opens the file again. For a clean exit:
    /// closing the last connection folds the write-ahead log back into the file.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard transactionDepth == 0 else { return }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Whether the database is open read-only: its file or folder is write-protected.
    /// Opens it if it is not open yet.
    public var isReadOnly: Bool {
        get throws {
            try locked { sqlite3_db_readonly(try connection(), "main") == 1 }
        }
    }

    // MARK: - Statements

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
    public static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - Transactions

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    /// Nested calls join the outer transaction.
    @discardableResult
    public func transaction<Result>(_ kind: TransactionKind = .deferred, _ body: (Database) throws -> Result) throws -> Result {
        defer { publishChanges() }
        return try locked {
            if transactionDepth > 0 { return try savepoint(body) }
            try run("BEGIN \(kind.rawValue)", positional: [], named: nil, control: true)
            transactionDepth = 1
            transactionAborted = false
            transactionChanges = [:]
            defer {
                transactionDepth = 0
                transactionAborted = false
                transactionChanges = [:]
            }
            do {
                let result = try body(self)
                try ensureNotAborted()
                try run("COMMIT", positional: [], named: nil, control: true)
                merge(transactionChanges, into: &readyChanges)
                return result
            } catch {
                if let handle, sqlite3_get_autocommit(handle) == 0 {
                    _ = try? run("ROLLBACK", positional: [], named: nil, control: true)
                }
                // Tables created inside the transaction are gone again: check them anew.
                preparedTables = []
                throw error
            }
        }
    }

    /// A nested transaction: a savepoint, so a caught inner failure undoes only its part.
    private func savepoint<Result>(_ body: (Database) throws -> Result) throws -> Result {
        try ensureNotAborted()
        let name = "savepoint_\(transactionDepth)"
        try run("SAVEPOINT \(name)", positional: [], named: nil, control: true)
        let changesBefore = transactionChanges
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body(self)
            try ensureNotAborted()
            try run("RELEASE \(name)", positional: [], named: nil, control: true)
            return result
        } catch {
            if !transactionAborted {
                _ = try? run("ROLLBACK TO \(name)", positional: [], named: nil, control: true)
                _ = try? run("RELEASE \(name)", positional: [], named: nil, control: true)
            }
            transactionChanges = changesBefore
            preparedTables = []
            throw error
        }
    }

    private func ensureNotAborted() throws {
        guard transactionAborted else { return }
        throw DatabaseError(.sqlite(code: SQLITE_ABORT),
                            "the transaction was rolled back by SQLite after an earlier error; nothing of it was kept")
    }

    /// Runs `body` holding the connection, counting the frames that hold it.
    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        heldDepth += 1
        defer {
            heldDepth -= 1
            lock.unlock()
        }
        return try body()
    }

    private func merge(_ changes: [ExactText: TableChange], into target: inout [ExactText: TableChange]) {
        // Mutated in place: copying the accumulated change out and back would copy its
        // arrays on every statement (quadratic in a long transaction).
        for (table, change) in changes {
            let empty = TableChange(table: table.text)
            target[table, default: empty].inserted += change.inserted
            target[table, default: empty].updated += change.updated
            target[table, default: empty].deleted += change.deleted
            if change.truncated { target[table, default: empty].truncated = true }
        }
    }

    // MARK: - Observation

    /// The committed changes of `table`, one value per committed statement or transaction.
    ///
    /// Values are sent after the commit, on the committing thread; a rolled-back change
    /// sends nothing. `Table.truncate()` sends `truncated`.
    public func changes(of table: String) -> Signal<TableChange> {
        locked {
            let key = ExactText(table)
            if let existing = observers[key] { return existing.output }
            let pipe = Signal<TableChange>.pipe()
            observers[key] = pipe
            return pipe.output
        }
    }

    /// Records a truncation of `table`, which SQLite's update hook does not report, as
    /// part of the statement or transaction that deleted the rows.
    func noteTruncated(_ table: String) {
        locked {
            if transactionDepth > 0 {
                transactionChanges[ExactText(table), default: TableChange(table: table)].truncated = true
            } else {
                readyChanges[ExactText(table), default: TableChange(table: table)].truncated = true
            }
        }
    }

    /// Sends committed changes to their observers. Only the outermost frame sends, after
    /// letting go of the connection, so observers may use the database freely.
    private func publishChanges() {
        lock.lock()
        guard heldDepth == 0, transactionDepth == 0, !readyChanges.isEmpty else {
            lock.unlock()
            return
        }
        let changes = readyChanges
        readyChanges = [:]
        let inputs = changes.keys.sorted().compactMap { table in observers[table].map { (table, $0.input) } }
        lock.unlock()
        for (table, input) in inputs {
            if let change = changes[table] { input.send(change) }
        }
    }

    fileprivate func recordChange(operation: Int32, table: String, rowID: Int64) {
        // Mutated in place: copying the change out and back would copy its arrays each time.
        let key = ExactText(table)
        switch operation {
        case SQLITE_INSERT: statementChanges[key, default: TableChange(table: table)].inserted.append(rowID)
        case SQLITE_UPDATE: statementChanges[key, default: TableChange(table: table)].updated.append(rowID)
        case SQLITE_DELETE: statementChanges[key, default: TableChange(table: table)].deleted.append(rowID)
        default: break
        }
    }

    // MARK: - Tables

    /// Runs `prepare` once per table name for this database.
    func prepareTable(named name: String, _ prepare: () throws -> Void) throws {
        try locked {
            let key = ExactText(name)
            guard !preparedTables.contains(key) else { return }
            try prepare()
            preparedTables.insert(key)
        }
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

    // MARK: - Connection

    private func connection() throws -> OpaquePointer {
        if let handle { return handle }
        let mode = try OpeningMode(path: path)
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(mode.filename(for: path), &opened, mode.flags, nil)
        guard code == SQLITE_OK, let opened else {
            let reason = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let opened { sqlite3_close_v2(opened) }
            throw DatabaseError(.cannotOpen, "cannot open the database at \(path): \(reason)")
        }
        sqlite3_busy_timeout(opened, 5_000)
        sqlite3_extended_result_codes(opened, 0)
        // A double-quoted name is always a name: an unknown one is an error, never text.
        guard csqlite_refuse_double_quoted_strings(opened) == SQLITE_OK else {
            sqlite3_close_v2(opened)
            throw DatabaseError(.cannotOpen, "cannot configure the database at \(path)")
        }
        // Reading the schema proves the file is a database before anything is written.
        do {
            try Self.check(sqlite3_exec(opened, "SELECT count(*) FROM sqlite_master", nil, nil, nil), opened,
                           context: mode == .readWrite ? "\(path) is not a usable SQLite database"
                               : "\(path) is read-only and could not be read")
            if sqlite3_db_readonly(opened, "main") == 0 {
                try Self.check(sqlite3_exec(opened, "PRAGMA journal_mode=WAL", nil, nil, nil), opened,
                               context: "cannot use write-ahead logging for \(path)")
            }
            try Self.check(sqlite3_exec(opened, "PRAGMA foreign_keys=ON", nil, nil, nil), opened, context: path)
        } catch {
            sqlite3_close_v2(opened)
            throw error
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(opened, { context, operation, _, table, rowID in
            guard let context, let table else { return }
            let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
            database.recordChange(operation: operation, table: String(cString: table), rowID: rowID)
        }, context)
        handle = opened
        return opened
    }

    private static func check(_ code: Int32, _ handle: OpaquePointer?, context: String) throws {
        guard code != SQLITE_OK && code != SQLITE_ROW && code != SQLITE_DONE else { return }
        throw error(code: code, handle: handle, context: context)
    }

    static func error(code: Int32, handle: OpaquePointer?, context: String) -> DatabaseError {
        let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let primary = code & 0xff
        let kind: DatabaseError.Kind
        switch primary {
        case SQLITE_CONSTRAINT: kind = .constraint
        case SQLITE_NOTADB, SQLITE_CORRUPT: kind = .notADatabase
        case SQLITE_READONLY: kind = .readOnly
        case SQLITE_BUSY, SQLITE_LOCKED: kind = .busy
        case SQLITE_CANTOPEN: kind = .cannotOpen
        default: kind = .sqlite(code: primary)
        }
        return DatabaseError(kind, "\(context): \(reason)")
    }

    @discardableResult
    private func run(
        _ sql: String,
        positional: [SQLiteValue],
        named: [String: SQLiteValue]?,
        control: Bool = false
    ) throws -> (rows: [Row], execution: Execution) {
        try locked {
            if transactionDepth > 0 && !control { try ensureNotAborted() }
            let handle = try connection()
            let statement = try prepared(sql, handle)
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            try bind(positional: positional, named: named, to: statement, sql: sql)
            statementChanges = [:]
            var rows: [Row] = []
            var names: [String]?
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    statementChanges = [:]
                    if transactionDepth > 0 && sqlite3_get_autocommit(handle) != 0 { transactionAborted = true }
                    if code & 0xff == SQLITE_READONLY {
                        throw DatabaseError(.readOnly, "the database \(path) is read-only; nothing was written")
                    }
                    throw Self.error(code: code, handle: handle, context: "cannot run \(Self.abbreviate(sql))")
                }
                // Column names are read after stepping: a statement re-prepared after a
                // schema change only knows its new columns then.
                let columnNames = names ?? (0..<sqlite3_column_count(statement)).map {
                    String(cString: sqlite3_column_name(statement, $0))
                }
                names = columnNames
                var row = Row()
                for (index, name) in columnNames.enumerated() { row[name] = Self.value(of: statement, at: Int32(index)) }
                rows.append(row)
            }
            if !statementChanges.isEmpty {
                if transactionDepth > 0 {
                    merge(statementChanges, into: &transactionChanges)
                } else {
                    merge(statementChanges, into: &readyChanges)
                }
                statementChanges = [:]
            }
            let execution = Execution(lastInsertRowID: sqlite3_last_insert_rowid(handle),
                                      changes: Int(sqlite3_changes(handle)))
            return (rows, execution)
        }
    }

    private func prepared(_ sql: String, _ handle: OpaquePointer) throws -> OpaquePointer {
        let key = ExactText(sql)
        if let cached = statements[key] { return cached }
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
            throw DatabaseError(.sqlite(code: SQLITE_MISUSE),
                                "one statement at a time: \(Self.abbreviate(sql)) holds more than one")
        }
        if statements.count >= 64, let victim = statements.first {
            sqlite3_finalize(victim.value)
            statements[victim.key] = nil
        }
        statements[key] = statement
        return statement
    }

    private func bind(positional: [SQLiteValue], named: [String: SQLiteValue]?, to statement: OpaquePointer, sql: String) throws {
        let expected = Int(sqlite3_bind_parameter_count(statement))
        if let named {
            // Looked up by exact name: `:café` is not `:cafe\u{301}`.
            let values = Dictionary(named.map { (ExactText($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
            for index in 1...max(1, expected) where index <= expected {
                guard let rawName = sqlite3_bind_parameter_name(statement, Int32(index)) else {
                    throw DatabaseError(.sqlite(code: SQLITE_MISUSE), "\(Self.abbreviate(sql)) mixes ? and named parameters")
                }
                let name = String(String(cString: rawName).dropFirst())
                guard let value = values[ExactText(name)] else {
                    throw DatabaseError(.sqlite(code: SQLITE_MISUSE), "no value for :\(name) in \(Self.abbreviate(sql))")
                }
                try bind(value, at: Int32(index), to: statement)
            }
        } else {
            guard positional.count == expected else {
                throw DatabaseError(.sqlite(code: SQLITE_MISUSE),
                                    "\(Self.abbreviate(sql)) takes \(expected) values, \(positional.count) given")
            }
            for (offset, value) in positional.enumerated() { try bind(value, at: Int32(offset + 1), to: statement) }
        }
    }

    private func bind(_ value: SQLiteValue, at index: Int32, to statement: OpaquePointer) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(statement, index)
        case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
        case .real(let number):
            // SQLite has no NaN: it would quietly keep NULL instead.
            guard !number.isNaN else {
                throw DatabaseError(.invalidRecord, "value \(index) is NaN, which SQLite cannot store (it would keep NULL); nothing was written")
            }
            code = sqlite3_bind_double(statement, index, number)
        case .text(let text):
            // Bound by byte count, so text holding NUL characters is stored whole.
            var utf8 = text
            code = try utf8.withUTF8 { bytes -> Int32 in
                guard bytes.count <= Int32.max else { throw DatabaseError(.invalidRecord, "text of \(bytes.count) bytes is too long") }
                guard let base = bytes.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, csqlite_transient()) }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(statement, index, $0, Int32(bytes.count), csqlite_transient())
                }
            }
        case .blob(let data):
            guard data.count <= Int32.max else { throw DatabaseError(.invalidRecord, "a blob of \(data.count) bytes is too large") }
            code = data.withUnsafeBytes { bytes in
                if bytes.count == 0 { return sqlite3_bind_zeroblob(statement, index, 0) }
                return sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), csqlite_transient())
            }
        }
        guard code == SQLITE_OK else { throw Self.error(code: code, handle: nil, context: "cannot bind value \(index)") }
    }

    private static func value(of statement: OpaquePointer, at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let text = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    private static func abbreviate(_ sql: String) -> String {
        let flat = sql.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > 80 ? String(flat.prefix(77)) + "..." : flat
    }
}

/// One `Database` per file, shared: every part of the app that names the same file gets
/// the same serialized connection.
// Safe to share: `databases` is touched only under `lock`.
public final class DatabasePool: @unchecked Sendable {
    /// The app-wide pool.
    public static let shared = DatabasePool()

    private let lock = NSLock()
    /// By exact path: file names that differ only in Unicode normalisation are two files.
    private var databases: [ExactText: Database] = [:]

    /// An empty pool.
    public init() {}

    /// Closes every database of the pool (see `Database.close()`), for a clean exit.
    public func closeAll() {
        lock.lock()
        let all = Array(databases.values)
        lock.unlock()
        all.forEach { $0.close() }
    }

    /// The database for the file at `path` (created on first use).
    public func database(at path: String) -> Database {
        let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let key = ExactText(resolved)
        lock.lock()
        defer { lock.unlock() }
        if let existing = databases[key] { return existing }
        let database = Database(path: resolved)
        databases[key] = database
        return database
    }
}
