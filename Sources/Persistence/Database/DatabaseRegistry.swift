// The registry of one shared `Database` per file path, and `DatabasePool`, its old name.

import Foundation

/// One shared ``Database`` per file: a registry, keyed by the file's resolved path.
///
/// Every part of the app that names the same file gets the same serialized connection.
/// (Not a pool of connections: each file has one ``Database``, one connection.)
// Safe to share: `databases` is touched only under `lock`.
public final class DatabaseRegistry: @unchecked Sendable {
    /// The app-wide registry.
    public static let shared = DatabaseRegistry()

    private let lock = NSLock()
    /// By exact path: file names that differ only in Unicode normalisation are two files.
    private var databases: [ExactText: Database] = [:]

    /// An empty registry.
    public init() {}

    /// Closes every database of the registry (see `Database.close()`), for a clean exit.
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

/// The old name of ``DatabaseRegistry``, kept so callers still compile: it was never a
/// pool of connections (GRDB's `DatabasePool` is one, of WAL readers).
@available(*, deprecated, renamed: "DatabaseRegistry")
public typealias DatabasePool = DatabaseRegistry
