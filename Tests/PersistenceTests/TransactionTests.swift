import Dispatch
import Foundation
import Persistence
import Signals
import SignalsTesting
import Testing

@Suite struct TransactionTests {
    struct Boom: Error {}

    @Test(arguments: [TransactionKind.deferred, .immediate, .exclusive])
    func committedWhenTheBodyReturns(kind: TransactionKind) throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let count = try table.database.transaction(kind) { _ in
            try table.insert(listing("a", "A"))
            try table.insert(listing("b", "B"))
            return try table.count()
        }
        #expect(count == 2)
        #expect(try table.count() == 2)
    }

    @Test func rolledBackWhenTheBodyThrows() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert(listing("keep", "Keep"))
        #expect(throws: Boom.self) {
            try table.database.transaction(.immediate) { _ in
                try table.insert(listing("a", "A"))
                try table.update(primaryKey: 1, ["title": "changed"])
                throw Boom()
            }
        }
        #expect(try table.count() == 1)
        #expect(try table.find(primaryKey: 1)?["title"] == "Keep")
    }

    @Test func nestedTransactionsJoinTheOuterOne() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        #expect(throws: Boom.self) {
            try table.database.transaction { database in
                try database.transaction { _ in try table.insert(listing("a", "A")) }
                throw Boom()
            }
        }
        #expect(try table.count() == 0)
    }

    @Test func otherThreadsWaitForATransactionToFinish() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.prepare()
        let inside = DispatchSemaphore(value: 0)
        let seen = SeenCounts()
        let reader = Thread {
            inside.wait()
            seen.append((try? table.count()) ?? -1)
        }
        reader.start()
        try table.database.transaction(.immediate) { _ in
            try table.insert(listing("a", "A"))
            inside.signal()
            Thread.sleep(forTimeInterval: 0.1)
            try table.insert(listing("b", "B"))
        }
        while seen.values.isEmpty { Thread.sleep(forTimeInterval: 0.01) }
        #expect(seen.values == [2])
    }

    @Test(.tags(.regression)) func aCaughtFailureInANestedTransactionUndoesOnlyItsPart() throws {
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

    @Test(.tags(.regression)) func afterSQLiteRollsBackByItselfTheRestOfTheTransactionFails() throws {
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
}

final class SeenCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int] = []
    var values: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func append(_ value: Int) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }
}
