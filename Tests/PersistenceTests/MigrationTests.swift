import Dispatch
import Foundation
import Persistence
import Signals
import SignalsTesting
import Testing

@Suite struct MigrationTests {
    let migrations = [
        Migration("listing") { try ListingTable(database: $0).prepare() },
        Migration("listing: note") { try $0.execute("ALTER TABLE listing ADD COLUMN note TEXT") },
    ]

    @Test func appliesInOrderOnceAndRecordsTheirNames() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        #expect(try Migrator(migrations).migrate(database) == ["listing", "listing: note"])
        #expect(try Migrator(migrations).migrate(database) == [])
        #expect(try Migrator.appliedMigrations(in: database) == ["listing", "listing: note"])
        try database.execute("INSERT INTO listing (code, title, note) VALUES ('a', 'A', 'n')")
    }

    @Test func modulesNameTheirOwnAndApplyInAnyOrderOnce() throws {
        // Two modules, each with its own named migrations: no numbers to agree on, and
        // whichever the app lists first, each applies once.
        let favourites = [Migration("favourites") { try $0.execute("CREATE TABLE favourite (id INTEGER PRIMARY KEY)") }]
        let logs = [Migration("operation log") { try $0.execute("CREATE TABLE entry (id INTEGER PRIMARY KEY)") }]
        let folder = TemporaryFolder()
        let database = folder.database()
        #expect(try Migrator(logs).migrate(database) == ["operation log"])
        #expect(try Migrator(favourites + logs).migrate(database) == ["favourites"])
        #expect(try Migrator(logs + favourites).migrate(database) == [])
        #expect(try Migrator.appliedMigrations(in: database) == ["operation log", "favourites"])
    }

    @Test func aLedgerWrittenWithVersionNumbersIsReadByName() throws {
        // Databases made before migrations were named recorded (version, name) pairs; the
        // names were the same, so nothing runs twice.
        let folder = TemporaryFolder()
        let database = folder.database()
        try database.execute(
            """
            CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)
            """)
        try database.execute("CREATE TABLE favourite (id INTEGER PRIMARY KEY)")
        try database.execute("INSERT INTO schema_migrations VALUES (1, 'favourites', 0)")
        let favourites = [
            Migration("favourites") { try $0.execute("CREATE TABLE favourite (id INTEGER PRIMARY KEY)") },
            Migration("favourites: note") { try $0.execute("ALTER TABLE favourite ADD COLUMN note TEXT") },
        ]
        #expect(try Migrator(favourites).migrate(database) == ["favourites: note"])
        #expect(try Migrator.appliedMigrations(in: database) == ["favourites", "favourites: note"])
    }

    @Test func aFailedMigrationKeepsTheOnesBeforeIt() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        let broken =
            migrations + [
                Migration("half-done") { database in
                    try database.execute("CREATE TABLE extra (id INTEGER PRIMARY KEY)")
                    try database.execute("ALTER TABLE missing ADD COLUMN x TEXT")
                },
                Migration("never reached") { try $0.execute("CREATE TABLE later (id INTEGER)") },
            ]
        do {
            try Migrator(broken).migrate(database)
            Issue.record("expected the migration to fail")
        } catch let error as DatabaseError {
            #expect(error.kind == .migrationFailed)
            #expect(error.message.contains("migration \"half-done\" failed"))
            #expect(error.message.contains("those before it were applied: \"listing\", \"listing: note\""))
        }
        #expect(try Migrator.appliedMigrations(in: database) == ["listing", "listing: note"])
        let tables = try database.fetch("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap {
            $0["name"]?.stringValue
        }
        #expect(!tables.contains("extra"))
        #expect(!tables.contains("later"))
    }

    @Test func aMigrationThatBreaksAForeignKeyIsRolledBack() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        let parents = Migration("parents") {
            try $0.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
            try $0.execute("CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent(id))")
            try $0.execute("INSERT INTO parent (id) VALUES (1)")
            try $0.execute("INSERT INTO child (id, parent) VALUES (1, 1)")
        }
        let orphaning = Migration("orphaning") { try $0.execute("DELETE FROM parent") }
        #expect {
            try Migrator([parents, orphaning]).migrate(database)
        } throws: {
            "\($0)".contains("migration \"orphaning\" failed")
                && "\($0)".contains("1 row(s) break a foreign key afterwards")
                && "\($0)".contains("those before it were applied: \"parents\"")
        }
        #expect(try Migrator.appliedMigrations(in: database) == ["parents"])
        #expect(try database.fetch("SELECT id FROM parent").count == 1)
    }

    @Test func twoMigrationsWithOneNameAreRefusedBeforeAnyRuns() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        let duplicate = [migrations[0], Migration("listing") { _ in }]
        #expect(throws: DatabaseError.self) { try Migrator(duplicate).migrate(database) }
        #expect(try Migrator.appliedMigrations(in: database).isEmpty)
    }

    @Test(.tags(.regression)) func aMigrationThatRebuildsAParentTableKeepsTheChildRows() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        try Migrator([
            Migration("tables") { database in
                try database.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT)")
                try database.execute(
                    "CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent(id) ON DELETE CASCADE)"
                )
                try database.execute("INSERT INTO parent (id, name) VALUES (1, 'p')")
                try database.execute("INSERT INTO child (parent) VALUES (1)")
                try database.execute("INSERT INTO child (parent) VALUES (1)")
            },
            Migration("rebuild parent") { database in
                try database.execute("CREATE TABLE parent_new (id INTEGER PRIMARY KEY, name TEXT, note TEXT)")
                try database.execute("INSERT INTO parent_new (id, name) SELECT id, name FROM parent")
                try database.execute("DROP TABLE parent")
                try database.execute("ALTER TABLE parent_new RENAME TO parent")
            },
        ]).migrate(database)
        #expect(try database.fetch("SELECT count(*) AS n FROM child").first?["n"] == 2)
        #expect(throws: DatabaseError.self) { try database.execute("INSERT INTO child (parent) VALUES (99)") }
    }
}
