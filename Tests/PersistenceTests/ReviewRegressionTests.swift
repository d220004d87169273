import Dispatch
import Foundation
import Persistence
import Signals
import SignalsTesting
import Testing

/// Regressions for defects found in review; each failed before its fix.
@Suite struct PersistenceReviewRegressionTests {
    @Test func aMigrationThatRebuildsAParentTableKeepsTheChildRows() throws {
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

    @Test func readsAfterASchemaChangeUseTheNewColumns() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        try database.execute("CREATE TABLE t (a, b, c)")
        try database.execute("INSERT INTO t VALUES (1, 'bee', 'sea')")
        _ = try database.fetch("SELECT * FROM t")
        try database.execute("ALTER TABLE t DROP COLUMN b")
        #expect(try database.fetch("SELECT * FROM t") == [["a": 1, "c": "sea"]])
        try database.execute("ALTER TABLE t ADD COLUMN d TEXT")
        #expect(try database.fetch("SELECT * FROM t") == [["a": 1, "c": "sea", "d": nil]])
    }

    @Test func severalStatementsInOneStringAreRefusedNotHalfRun() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        #expect(throws: DatabaseError.self) { try database.execute("CREATE TABLE a (x); CREATE TABLE b (y)") }
        #expect(try database.fetch("SELECT name FROM sqlite_master WHERE type = 'table'").isEmpty)
        try database.execute("CREATE TABLE a (x);  \n")
    }

    @Test func textWithNULCharactersIsStoredWhole() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        try database.execute("CREATE TABLE t (v TEXT)")
        let text = "before\u{0}after 中"
        try database.execute("INSERT INTO t VALUES (?)", [.text(text)])
        #expect(try database.fetch("SELECT v FROM t").first?["v"] == .text(text))
    }

    struct Note: Codable, Record, Equatable {
        enum Status: String, Codable { case active, archived }
        var key: String
        var title: String?
        var status: Status
        var token: UUID
    }

    struct NoteTable: Table {
        let database: Database
        let name = "note"
        let primaryKey = "id"
        let columns = [
            Column("id", .integer), Column("key", .text, unique: true), Column("title", .text),
            Column("status", .text), Column("token", .text),
        ]
    }

    @Test func upsertingANilPropertyClearsTheColumnAndEnumsAreQueryable() throws {
        let folder = TemporaryFolder()
        let table = NoteTable(database: folder.database())
        let token = UUID()
        try table.upsert(Note(key: "k", title: "Loft", status: .active, token: token), uniqueKey: ["key"])
        try table.upsert(Note(key: "k", title: nil, status: .active, token: token), uniqueKey: ["key"])
        #expect(try table.records(Note.self) == [Note(key: "k", title: nil, status: .active, token: token)])
        #expect(try table.count(where: "status = :s", ["s": "active"]) == 1)
        #expect(try table.count(where: "token = :t", ["t": .text(token.uuidString)]) == 1)
    }

    @Test func valuesThatCannotBeStoredAreErrorsNotSilentRows() throws {
        struct Big: Codable, Record {
            var key: String
            var count: UInt64
        }
        struct BigTable: Table {
            let database: Database
            let name = "big"
            let primaryKey = "id"
            let columns = [Column("id", .integer), Column("key", .text), Column("count", .integer)]
        }
        let folder = TemporaryFolder()
        let table = BigTable(database: folder.database())
        #expect(throws: EncodingError.self) { try table.insert(Big(key: "x", count: .max)) }
        #expect(try table.count() == 0)
    }

    @Test func aCaughtFailureInANestedTransactionUndoesOnlyItsPart() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert(listing("dup", "existing"))
        let recorder = table.changes.record()
        try table.database.transaction { _ in
            try table.insert(listing("outer", "kept"))
            _ = try? table.insert([listing("new1", "undone"), listing("dup", "fails")])
        }
        #expect(try table.find(where: "code = :c", ["c": "new1"]).isEmpty)
        #expect(try table.count() == 2)
        #expect(recorder.values.map(\.inserted.count) == [1])
    }

    @Test func afterSQLiteRollsBackByItselfTheRestOfTheTransactionFails() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        try database.execute("CREATE TABLE t (k TEXT UNIQUE)")
        try database.execute("INSERT INTO t VALUES ('a')")
        #expect(throws: DatabaseError.self) {
            try database.transaction { database in
                _ = try? database.execute("INSERT OR ROLLBACK INTO t VALUES ('a')")
                try database.execute("INSERT INTO t VALUES ('b')")
            }
        }
        #expect(try database.fetch("SELECT k FROM t") == [["k": "a"]])
    }

    @Test func everyCommittedInsertIsNotifiedWhileOtherThreadsFail() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert(listing("dup", "taken"))
        let notified = NotifiedCount()
        let subscription = table.changes.observe { notified.add($0.inserted.count) }
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            for index in 0..<300 {
                switch thread {
                case 0: _ = try? table.insert(listing("ok-\(index)", "fine"))
                case 1: _ = try? table.insert(listing("dup", "always fails"))
                default:
                    struct Boom: Error {}
                    _ = try? table.database.transaction { _ in
                        try table.insert(listing("gone-\(index)", "rolled back"))
                        throw Boom()
                    }
                }
            }
        }
        #expect(try table.count() == 301)
        #expect(notified.value == 300)
        subscription.dispose()
    }
}

final class NotifiedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }
    func add(_ count: Int) {
        lock.lock()
        total += count
        lock.unlock()
    }
}
