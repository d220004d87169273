import Foundation

/// One schema change, applied once, identified by its version.
public struct Migration: Sendable {
    /// Versions apply in increasing order; each is applied at most once.
    public let version: Int
    /// What the migration does, for messages.
    public let name: String
    /// The change; it runs inside the migration's own transaction.
    public let apply: @Sendable (Database) throws -> Void

    /// Describes a migration.
    public init(version: Int, name: String, apply: @escaping @Sendable (Database) throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }
}

/// Applies migrations by version, each in its own transaction, recording the applied
/// versions in the table `schema_migrations`. A failed migration is rolled back and stops
/// the run: the database stays at the last version that succeeded.
///
/// ```swift
/// try Migrator([
///     Migration(version: 1, name: "create favorites") { try FavoriteTable(database: $0).prepare() },
///     Migration(version: 2, name: "add note") { try $0.execute("ALTER TABLE favorite ADD COLUMN note TEXT") },
/// ]).migrate(database)
/// ```
public struct Migrator: Sendable {
    /// The migrations, in any order.
    public let migrations: [Migration]

    /// A migrator for `migrations` (versions must be unique).
    public init(_ migrations: [Migration]) {
        self.migrations = migrations
    }

    /// The versions applied to `database` so far, in order.
    public static func appliedVersions(in database: Database) throws -> [Int] {
        try ensureLedger(database)
        return try database.fetch("SELECT version FROM schema_migrations ORDER BY version").compactMap { $0["version"]?.intValue }
    }

    /// Applies every migration not applied yet; returns the versions it applied.
    @discardableResult
    public func migrate(_ database: Database) throws -> [Int] {
        let versions = migrations.map(\.version)
        guard Set(versions).count == versions.count else {
            throw DatabaseError(.migrationFailed, "migration versions must be unique: \(versions.sorted())")
        }
        let applied = Set(try Self.appliedVersions(in: database))
        var done: [Int] = []
        // Foreign keys are off while migrating (SQLite ignores the pragma inside a
        // transaction), so rebuilding a table does not cascade into its children; they are
        // checked before each migration commits.
        try database.execute("PRAGMA foreign_keys=OFF")
        defer { _ = try? database.execute("PRAGMA foreign_keys=ON") }
        for migration in migrations.sorted(by: { $0.version < $1.version }) where !applied.contains(migration.version) {
            do {
                try database.transaction(.immediate) { database in
                    try migration.apply(database)
                    let violations = try database.fetch("PRAGMA foreign_key_check")
                    guard violations.isEmpty else {
                        throw DatabaseError(.constraint, "\(violations.count) row(s) break a foreign key afterwards")
                    }
                    try database.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                                         [.integer(Int64(migration.version)), .text(migration.name),
                                          .real(Date().timeIntervalSince1970)])
                }
            } catch {
                let previous = (applied.union(done)).max().map(String.init) ?? "none"
                throw DatabaseError(.migrationFailed,
                                    "migration \(migration.version) (\(migration.name)) failed: \(error); "
                                    + "the database stays at version \(previous)")
            }
            done.append(migration.version)
        }
        return done
    }

    private static func ensureLedger(_ database: Database) throws {
        try database.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)
            """)
    }
}
