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

    /// Whether the change touched nothing.
    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !truncated }

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
/// it for its whole body, so other threads wait). Get one per file from ``DatabasePool``.
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
// Safe to share: the connection and every cache are touched only under the recursive `lock`
// (which is also why the runtime exclusivity checks of the hot fields are left out).
public final class Database: @unchecked Sendable {
    /// The file path.
    public let path: String
    private let lock = NSRecursiveLock()
    @exclusivity(unchecked) private var handle: OpaquePointer?
    /// Prepared statements by their exact SQL text.
    private var statements: [ExactText: StatementSlot] = [:]
    @exclusivity(unchecked) private var transactionDepth = 0
    /// Set when SQLite rolled the open transaction back by itself (ON CONFLICT ROLLBACK,
    /// a trigger, a full disk): every statement then fails until the transaction unwinds.
    @exclusivity(unchecked) private var transactionAborted = false
    /// How many frames of the thread holding `lock` hold it; observers are only told
    /// of changes by the outermost frame, never while the lock is held.
    @exclusivity(unchecked) private var heldDepth = 0
    /// The columns each table had when last looked at (see `checkColumns`).
    private var knownColumns: [ExactText: Set<ExactText>] = [:]
    // Changes are kept in short lists, one entry per table (found by its exact bytes): a
    // transaction touches few tables, and a scan beats hashing the name on every row the
    // update hook reports. The hook records straight into the open transaction's list (or
    // the ready one outside a transaction); a statement that fails is cut back to `marks`.
    /// Changes of the open transaction; kept only if it commits.
    @exclusivity(unchecked) private var transactionChanges: [TableChange] = []
    /// Committed changes not yet sent to observers.
    @exclusivity(unchecked) private var readyChanges: [TableChange] = []
    /// How many entries the list the hook records into had before the running statement.
    @exclusivity(unchecked) private var markedEntries = 0
    /// The lengths, before the running statement, of each older entry it has touched.
    @exclusivity(unchecked) private var marks: [(entry: Int, inserted: Int, updated: Int, deleted: Int)] = []
    /// SQL text made for each table, so no call quotes its names again.
    private var tableTexts: [ExactText: TableText] = [:]
    /// The table text used last, found without hashing its name.
    @exclusivity(unchecked) private var lastTableText: TableText?
    /// Whether a bound value is big enough to be worth releasing after the statement.
    @exclusivity(unchecked) private var boundLargeValue = false
    private var observers: [ExactText: (output: Signal<TableChange>, input: Signal<TableChange>.Input)] = [:]
    /// The committed changes of every table, one value per commit, made by the first
    /// observation (see `observeCommits`).
    private var commits: (output: Signal<[TableChange]>, input: Signal<[TableChange]>.Input)?

    /// Creates a database for the file at `path`, opened on first use.
    ///
    /// Prefer ``DatabasePool``, which gives every part of the app the same connection for a
    /// file.
    public init(path: String) {
        self.path = path
    }

    deinit {
        for slot in statements.values { slot.finalize() }
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Closes the connection now, unless a transaction is open on it.
    ///
    /// A transaction on another thread is waited for. The next use opens the file again.
    /// Use it for a clean exit: closing the last connection folds the write-ahead log back
    /// into the file.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard transactionDepth == 0 else { return }
        for slot in statements.values { slot.finalize() }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Whether the database is open read-only because its file or folder is write-protected.
    ///
    /// Reading it opens the database if it is not open yet.
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

    // MARK: - Transactions

    /// Runs `body` in a transaction, committed if it returns and rolled back if it throws.
    ///
    /// Nested calls join the outer transaction. The transaction holds the connection for
    /// its whole body, so other threads wait.
    ///
    /// - Parameters:
    ///   - kind: How the transaction begins; `.deferred` unless given.
    ///   - body: The work, given this database.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, after the rollback, or a ``DatabaseError`` when the
    ///   transaction cannot begin or commit.
    @discardableResult
    public func transaction<Result>(_ kind: TransactionKind = .deferred, _ body: (Database) throws -> Result) throws
        -> Result
    {
        defer { publishChanges() }
        return try locked {
            if transactionDepth > 0 { return try savepoint(body) }
            try run("BEGIN \(kind.rawValue)", positional: [], named: nil, control: true)
            transactionDepth = 1
            transactionAborted = false
            transactionChanges = []
            defer {
                transactionDepth = 0
                transactionAborted = false
                transactionChanges = []
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
                forgetPreparedTables()
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
            forgetPreparedTables()
            throw error
        }
    }

    private func ensureNotAborted() throws {
        guard transactionAborted else { return }
        throw DatabaseError(
            .sqlite(code: SQLITE_ABORT),
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

    private func merge(_ changes: [TableChange], into target: inout [TableChange]) {
        // Mutated in place: copying the accumulated change out and back would copy its
        // arrays on every statement (quadratic in a long transaction).
        for change in changes where !change.isEmpty {
            let index = Self.entry(of: change.table, in: &target)
            target[index].inserted += change.inserted
            target[index].updated += change.updated
            target[index].deleted += change.deleted
            if change.truncated { target[index].truncated = true }
        }
    }

    /// The index of `table`'s entry in `changes`, added if missing.
    private static func entry(of table: String, in changes: inout [TableChange]) -> Int {
        if let index = changes.lastIndex(where: { ExactText.same($0.table, table) }) { return index }
        changes.append(TableChange(table: table))
        return changes.count - 1
    }

    // MARK: - Observation

    /// The committed changes of `table`, one value per committed statement or transaction.
    ///
    /// Values are sent after the commit, on the committing thread; a rolled-back change
    /// sends nothing. `Table.truncate()` sends `truncated`.
    ///
    /// To keep a value in sync with stored rows, use ``observe(tables:_:)``: reading the
    /// rows and then observing this signal misses a commit made between the two.
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
                transactionChanges[Self.entry(of: table, in: &transactionChanges)].truncated = true
            } else {
                readyChanges[Self.entry(of: table, in: &readyChanges)].truncated = true
            }
        }
    }

    /// Runs `body` holding the connection, with the signal of every commit; for
    /// observations, which must read and start listening while no commit can happen.
    ///
    /// The signal sends, once per commit (a statement outside a transaction, or an
    /// outermost transaction), the changes of every table it touched, sorted by name. It
    /// is sent after the commit and outside the lock, before the changes of each table.
    func observeCommits<Result>(_ body: (_ commits: Signal<[TableChange]>) -> Result) -> Result {
        locked {
            if let commits { return body(commits.output) }
            let pipe = Signal<[TableChange]>.pipe()
            commits = pipe
            return body(pipe.output)
        }
    }

    /// Runs `body` holding the connection, unless this thread has a transaction open: then
    /// nil (what `body` read would not be committed yet).
    func outsideTransactions<Result>(_ body: () throws -> Result) rethrows -> Result? {
        try lockedThenPublishing { transactionDepth > 0 ? nil : try body() }
    }

    /// Sends committed changes to their observers. Only the outermost frame sends, after
    /// letting go of the connection, so observers may use the database freely.
    private func publishChanges() {
        lock.lock()
        let publication = takeReadyChanges()
        lock.unlock()
        publication?.send()
    }

    /// Committed changes and where they go, taken out under the lock and sent after it.
    private struct Publication {
        let changes: [TableChange]
        let tables: [(TableChange, Signal<TableChange>.Input)]
        let commits: Signal<[TableChange]>.Input?

        func send() {
            commits?.send(changes)
            for (change, input) in tables { input.send(change) }
        }
    }

    /// The ready changes and their observers, taken out, when the calling frame is the
    /// outermost; called holding `lock`.
    private func takeReadyChanges() -> Publication? {
        guard heldDepth == 0, transactionDepth == 0, !readyChanges.isEmpty else { return nil }
        let changes = readyChanges.sorted { ExactText.precedes($0.table, $1.table) }
        readyChanges = []
        return Publication(
            changes: changes,
            tables: changes.compactMap { change in observers[ExactText(change.table)].map { (change, $0.input) } },
            commits: commits?.input)
    }

    /// `locked` and then `publishChanges`, taking the lock once.
    private func lockedThenPublishing<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        heldDepth += 1
        defer {
            heldDepth -= 1
            let publication = takeReadyChanges()
            lock.unlock()
            publication?.send()
        }
        return try body()
    }

    fileprivate func recordChange(operation: Int32, table: UnsafePointer<CChar>, rowID: Int64) {
        if transactionDepth > 0 {
            record(operation, table, rowID, in: &transactionChanges)
        } else {
            record(operation, table, rowID, in: &readyChanges)
        }
    }

    private func record(
        _ operation: Int32, _ table: UnsafePointer<CChar>, _ rowID: Int64,
        in changes: inout [TableChange]
    ) {
        let length = strlen(table)
        var found: Int?
        for index in changes.indices.reversed() {
            let same = changes[index].table.utf8.withContiguousStorageIfAvailable { name in
                name.count == length && (name.baseAddress.map { memcmp($0, table, length) == 0 } ?? true)
            }
            if same ?? ExactText.same(changes[index].table, String(cString: table)) {
                found = index
                break
            }
        }
        let index = found ?? changes.count
        if found == nil { changes.append(TableChange(table: String(cString: table))) }
        if index < markedEntries && !marks.contains(where: { $0.entry == index }) {
            let change = changes[index]
            marks.append((index, change.inserted.count, change.updated.count, change.deleted.count))
        }
        // Mutated in place: copying the change out and back would copy its arrays each time.
        switch operation {
        case SQLITE_INSERT: changes[index].inserted.append(rowID)
        case SQLITE_UPDATE: changes[index].updated.append(rowID)
        case SQLITE_DELETE: changes[index].deleted.append(rowID)
        default: break
        }
    }

    /// Notes where the change lists stand before a statement runs.
    private func markChanges() {
        markedEntries = transactionDepth > 0 ? transactionChanges.count : readyChanges.count
        if !marks.isEmpty { marks.removeAll(keepingCapacity: true) }
    }

    /// Forgets what a failed statement recorded: cuts the lists back to the marks.
    private func dropStatementChanges() {
        if transactionDepth > 0 {
            cut(&transactionChanges)
        } else {
            cut(&readyChanges)
        }
    }

    private func cut(_ changes: inout [TableChange]) {
        if changes.count > markedEntries { changes.removeLast(changes.count - markedEntries) }
        for mark in marks {
            changes[mark.entry].inserted.removeLast(changes[mark.entry].inserted.count - mark.inserted)
            changes[mark.entry].updated.removeLast(changes[mark.entry].updated.count - mark.updated)
            changes[mark.entry].deleted.removeLast(changes[mark.entry].deleted.count - mark.deleted)
        }
        marks.removeAll(keepingCapacity: true)
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

    private func forgetPreparedTables() {
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
            try Self.check(
                sqlite3_exec(opened, "SELECT count(*) FROM sqlite_master", nil, nil, nil), opened,
                context: mode == .readWrite
                    ? "\(path) is not a usable SQLite database"
                    : "\(path) is read-only and could not be read")
            if sqlite3_db_readonly(opened, "main") == 0 {
                try Self.check(
                    sqlite3_exec(opened, "PRAGMA journal_mode=WAL", nil, nil, nil), opened,
                    context: "cannot use write-ahead logging for \(path)")
            }
            try Self.check(sqlite3_exec(opened, "PRAGMA foreign_keys=ON", nil, nil, nil), opened, context: path)
        } catch {
            sqlite3_close_v2(opened)
            throw error
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(
            opened,
            { context, operation, _, table, rowID in
                guard let context, let table else { return }
                let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                database.recordChange(operation: operation, table: table, rowID: rowID)
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
            var kept: StatementSlot?
            return try run(sql, kept: &kept, control: control) { statement in
                try bind(positional: positional, named: named, to: statement, sql: sql)
            }
        }
    }

    /// Runs `sql`, its values bound by `bindValues`; called holding `lock`. `kept` keeps the
    /// prepared statement for its caller, so the SQL text need not be looked up again while
    /// the statement cache holds it.
    private func run(
        _ sql: String,
        kept: inout StatementSlot?,
        control: Bool = false,
        bindValues: (OpaquePointer) throws -> Void
    ) throws -> (rows: [Row], execution: Execution) {
        do {
            if transactionDepth > 0 && !control { try ensureNotAborted() }
            let handle = try connection()
            let slot: StatementSlot
            if let kept, kept.statement != nil {
                slot = kept
            } else {
                slot = try prepared(sql, handle)
                kept = slot
            }
            guard let statement = slot.statement else {
                throw DatabaseError(.sqlite(code: SQLITE_MISUSE), "cannot run \(Self.abbreviate(sql)): no statement")
            }
            defer {
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
            var rows: [Row] = []
            var names: [String]?
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    dropStatementChanges()
                    if transactionDepth > 0 && sqlite3_get_autocommit(handle) != 0 { transactionAborted = true }
                    if code & 0xff == SQLITE_READONLY {
                        throw DatabaseError(.readOnly, "the database \(path) is read-only; nothing was written")
                    }
                    throw Self.error(code: code, handle: handle, context: "cannot run \(Self.abbreviate(sql))")
                }
                // Column names are read after stepping: a statement re-prepared after a
                // schema change only knows its new columns then.
                let columnNames = names ?? slot.columnNames()
                names = columnNames
                if slot.namesAreUnique {
                    // The rows share the statement's names; each is one array of values.
                    var values: [SQLiteValue] = []
                    values.reserveCapacity(columnNames.count)
                    for index in columnNames.indices { values.append(Self.value(of: statement, at: Int32(index))) }
                    rows.append(Row(uniqueNames: columnNames, values: values))
                } else {
                    var row = Row()
                    for (index, name) in columnNames.enumerated() {
                        row[name] = Self.value(of: statement, at: Int32(index))
                    }
                    rows.append(row)
                }
            }
            let execution = Execution(
                lastInsertRowID: sqlite3_last_insert_rowid(handle),
                changes: Int(sqlite3_changes(handle)))
            return (rows, execution)
        }
    }

    private func prepared(_ sql: String, _ handle: OpaquePointer) throws -> StatementSlot {
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
            throw DatabaseError(
                .sqlite(code: SQLITE_MISUSE),
                "one statement at a time: \(Self.abbreviate(sql)) holds more than one")
        }
        if statements.count >= 64, let victim = statements.first {
            victim.value.finalize()
            statements[victim.key] = nil
        }
        let slot = StatementSlot(statement)
        statements[key] = slot
        return slot
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

    private func bind(_ value: SQLiteValue, at index: Int32, to statement: OpaquePointer) throws {
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

/// One shared ``Database`` per file.
///
/// Every part of the app that names the same file gets the same serialized connection.
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
