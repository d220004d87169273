import Foundation

/// One schema change, applied once, known by its identifier.
///
/// Each module names its own migrations (after its data center, for instance), so two
/// modules sharing a database never coordinate numbers: a migration is applied when its
/// identifier is not in the database's ledger yet.
public struct Migration: Sendable {
    /// The name the database's ledger knows this migration by.
    ///
    /// It is unique among the migrations of a database, and never changed once shipped.
    public let identifier: String
    /// The change, run inside the migration's own transaction.
    public let apply: @Sendable (Database) throws -> Void

    /// A migration known as `identifier` that makes the change `apply`.
    public init(_ identifier: String, apply: @escaping @Sendable (Database) throws -> Void) {
        self.identifier = identifier
        self.apply = apply
    }
}

/// Applies the migrations not applied yet, in the order given.
///
/// Each runs in its own transaction, and its identifier is recorded in the table
/// `schema_migrations`. A failed migration is rolled back and stops the run: the ones
/// before it stay applied.
///
/// ```swift
/// try Migrator(FavoritesDataCenter.migrations + OperationLogDataCenter.migrations).migrate(database)
///
/// // In the Favorites module, its own migrations, in order:
/// static let migrations = [
///     Migration("favourites") { try FavoriteTable(database: $0).prepare() },
///     Migration("favourites: note") { try $0.execute("ALTER TABLE favorite ADD COLUMN note TEXT") },
/// ]
/// ```
public struct Migrator: Sendable {
    /// The migrations, in the order they apply.
    public let migrations: [Migration]

    /// A migrator for `migrations` (identifiers must be unique), applied in this order.
    public init(_ migrations: [Migration]) {
        self.migrations = migrations
    }

    /// The identifiers of the migrations applied to `database`, in the order they were.
    public static func appliedMigrations(in database: Database) throws -> [String] {
        try ensureLedger(database)
        return try database.fetch("SELECT name FROM schema_migrations ORDER BY version").compactMap {
            $0["name"]?.stringValue
        }
    }

    /// Applies every migration not applied yet, in order.
    ///
    /// - Parameter database: The database to migrate.
    /// - Returns: The identifiers of the migrations it applied.
    /// - Throws: The error of the failed migration, which is rolled back; the migrations
    ///   before it stay applied.
    @discardableResult
    public func migrate(_ database: Database) throws -> [String] {
        var seen = Set<String>()
        for migration in migrations where !seen.insert(migration.identifier).inserted {
            throw DatabaseError(.migrationFailed, "two migrations are named \"\(migration.identifier)\"")
        }
        let applied = Set(try Self.appliedMigrations(in: database))
        let pending = migrations.filter { !applied.contains($0.identifier) }
        guard !pending.isEmpty else { return [] }
        var done: [String] = []
        // Foreign keys are off while migrating (SQLite ignores the pragma inside a
        // transaction), so rebuilding a table does not cascade into its children; they are
        // checked before each migration commits.
        try database.execute("PRAGMA foreign_keys=OFF")
        defer { _ = try? database.execute("PRAGMA foreign_keys=ON") }
        for migration in pending {
            do {
                try database.transaction(.immediate) { database in
                    try migration.apply(database)
                    let violations = try database.fetch("PRAGMA foreign_key_check")
                    guard violations.isEmpty else {
                        throw DatabaseError(.constraint, "\(violations.count) row(s) break a foreign key afterwards")
                    }
                    // `version` only orders the ledger (databases made before migrations had
                    // names recorded numbers there, and their names are the identifiers).
                    try database.execute(
                        """
                        INSERT INTO schema_migrations (version, name, applied_at)
                        VALUES ((SELECT COALESCE(MAX(version), 0) + 1 FROM schema_migrations), ?, ?)
                        """, [.text(migration.identifier), .real(Date().timeIntervalSince1970)])
                }
            } catch {
                let kept =
                    done.isEmpty
                    ? "none of this run's were applied"
                    : "those before it were applied: " + done.map { "\"\($0)\"" }.joined(separator: ", ")
                throw DatabaseError(.migrationFailed, "migration \"\(migration.identifier)\" failed: \(error); \(kept)")
            }
            done.append(migration.identifier)
        }
        return done
    }

    private static func ensureLedger(_ database: Database) throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)
            """)
    }
}
