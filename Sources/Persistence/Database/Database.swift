// The connection: `Database`'s state, opening and closing the file, transactions, and how
// SQLite's result codes become a `DatabaseError`. Statements are in Statements.swift, the
// caches of prepared statements in StatementCache.swift, change recording in ChangeLog.swift.
// The state is declared here (a stored property cannot live in an extension); what those
// files use is internal rather than private, and still touched only under `lock`.

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

/// One SQLite database file behind one serialized connection, opened on first use.
///
/// Safe from any thread: every use of the connection is serialized (a transaction holds it
/// for its whole body, so other threads wait). Get one per file from ``DatabaseRegistry``.
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
/// let database = DatabaseRegistry.shared.database(at: "/tmp/homes.sqlite")
/// try database.execute("CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, text TEXT)")
/// try database.execute("INSERT INTO note (text) VALUES (?)", ["it's \"quoted\"; DROP TABLE note"])
/// let rows = try database.fetch("SELECT text FROM note WHERE id = :id", named: ["id": 1])
/// ```
// Safe to share: the connection and every cache are touched only under the recursive `lock`
// (which is also why the runtime exclusivity checks of the hot fields are left out).
public final class Database: @unchecked Sendable {
    /// The file path.
    public let path: String
    let lock = NSRecursiveLock()
    @exclusivity(unchecked) private var handle: OpaquePointer?
    /// Prepared statements by their exact SQL text.
    var statements: [ExactText: StatementSlot] = [:]
    @exclusivity(unchecked) var transactionDepth = 0
    /// Set when SQLite rolled the open transaction back by itself (ON CONFLICT ROLLBACK,
    /// a trigger, a full disk): every statement then fails until the transaction unwinds.
    @exclusivity(unchecked) var transactionAborted = false
    /// How many frames of the thread holding `lock` hold it; observers are only told
    /// of changes by the outermost frame, never while the lock is held.
    @exclusivity(unchecked) var heldDepth = 0
    /// The columns each table had when last looked at (see `checkColumns`).
    var knownColumns: [ExactText: Set<ExactText>] = [:]
    // Changes are kept in short lists, one entry per table (found by its exact bytes): a
    // transaction touches few tables, and a scan beats hashing the name on every row the
    // update hook reports. The hook records straight into the open transaction's list (or
    // the ready one outside a transaction); a statement that fails is cut back to `marks`.
    /// Changes of the open transaction; kept only if it commits.
    @exclusivity(unchecked) var transactionChanges: [TableChange] = []
    /// Committed changes not yet sent to observers.
    @exclusivity(unchecked) var readyChanges: [TableChange] = []
    /// How many entries the list the hook records into had before the running statement.
    @exclusivity(unchecked) var markedEntries = 0
    /// The lengths, before the running statement, of each older entry it has touched.
    @exclusivity(unchecked) var marks: [(entry: Int, inserted: Int, updated: Int, deleted: Int)] = []
    /// SQL text made for each table, so no call quotes its names again.
    var tableTexts: [ExactText: TableText] = [:]
    /// The table text used last, found without hashing its name.
    @exclusivity(unchecked) var lastTableText: TableText?
    /// Whether a bound value is big enough to be worth releasing after the statement.
    @exclusivity(unchecked) var boundLargeValue = false
    var observers: [ExactText: (output: Signal<TableChange>, input: Signal<TableChange>.Input)] = [:]
    /// The committed changes of every table, one value per commit, made by the first
    /// observation (see `observeCommits`).
    var commits: (output: Signal<[TableChange]>, input: Signal<[TableChange]>.Input)?

    /// Creates a database for the file at `path`, opened on first use.
    ///
    /// Prefer ``DatabaseRegistry``, which gives every part of the app the same connection
    /// for a file.
    public init(path: String) {
        self.path = path
    }

    deinit {
        for slot in statements.values { slot.finalize() }
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Closes the connection now, unless a transaction is open on it (or its rows are being
    /// read into records, as when a record's `init(row:)` calls it).
    ///
    /// A transaction on another thread is waited for. The next use opens the file again.
    /// Use it for a clean exit: closing the last connection folds the write-ahead log back
    /// into the file.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard transactionDepth == 0, !statements.values.contains(where: \.isRunning) else { return }
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

    func ensureNotAborted() throws {
        guard transactionAborted else { return }
        throw DatabaseError(
            .sqlite(code: SQLITE_ABORT),
            "the transaction was rolled back by SQLite after an earlier error; nothing of it was kept")
    }

    /// Runs `body` holding the connection, counting the frames that hold it.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        heldDepth += 1
        defer {
            heldDepth -= 1
            lock.unlock()
        }
        return try body()
    }

    // MARK: - Connection

    func connection() throws -> OpaquePointer {
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
}
