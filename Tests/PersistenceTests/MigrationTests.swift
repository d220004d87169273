import Foundation
import Persistence
import Testing

@Suite struct MigrationTests {
    let migrations = [
        Migration(version: 1, name: "create listing") { try ListingTable(database: $0).prepare() },
        Migration(version: 2, name: "add note") { try $0.execute("ALTER TABLE listing ADD COLUMN note TEXT") },
    ]

    @Test func appliesInOrderOnceAndRecordsVersions() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        #expect(try Migrator(migrations.reversed()).migrate(database) == [1, 2])
        #expect(try Migrator(migrations).migrate(database) == [])
        #expect(try Migrator.appliedVersions(in: database) == [1, 2])
        try database.execute("INSERT INTO listing (code, title, note) VALUES ('a', 'A', 'n')")
    }

    @Test func aFailedMigrationLeavesThePreviousVersion() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        let broken = migrations + [
            Migration(version: 3, name: "half-done") { database in
                try database.execute("CREATE TABLE extra (id INTEGER PRIMARY KEY)")
                try database.execute("ALTER TABLE missing ADD COLUMN x TEXT")
            },
            Migration(version: 4, name: "never reached") { try $0.execute("CREATE TABLE later (id INTEGER)") },
        ]
        do {
            try Migrator(broken).migrate(database)
            Issue.record("expected the migration to fail")
        } catch let error as DatabaseError {
            #expect(error.kind == .migrationFailed)
            #expect(error.message.contains("migration 3 (half-done) failed"))
            #expect(error.message.contains("stays at version 2"))
        }
        #expect(try Migrator.appliedVersions(in: database) == [1, 2])
        let tables = try database.fetch("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0["name"]?.stringValue }
        #expect(!tables.contains("extra"))
        #expect(!tables.contains("later"))
    }

    @Test func duplicateVersionsAreRefused() throws {
        let folder = TemporaryFolder()
        let duplicate = [migrations[0], Migration(version: 1, name: "again") { _ in }]
        #expect(throws: DatabaseError.self) { try Migrator(duplicate).migrate(folder.database()) }
    }
}
