// The registry of one shared `Database` per file path.

import Foundation

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
