import Dispatch
import Foundation
import Persistence
import Signals
import SignalsTesting
import Synchronization
import Testing

@Suite struct ObservationTests {
    @Test func committedChangesArriveAsSignalValues() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let recorder = table.changes.record()
        let id = try table.insert(listing("a", "A"))
        try table.update(primaryKey: .integer(id), ["title": "A2"])
        try table.delete(primaryKey: .integer(id))
        try table.truncate()
        var expected = [
            TableChange(table: "listing"), TableChange(table: "listing"), TableChange(table: "listing"),
            TableChange(table: "listing"),
        ]
        expected[0].inserted = [id]
        expected[1].updated = [id]
        expected[2].deleted = [id]
        expected[3].truncated = true
        recorder.assertValues(expected)
    }

    @Test func aTransactionSendsOneValueAndARollbackNone() throws {
        struct Boom: Error {}
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let recorder = table.changes.record()
        try table.insert([listing("a", "A"), listing("b", "B")])
        _ = try? table.database.transaction { _ in
            try table.insert(listing("c", "C"))
            throw Boom()
        }
        #expect(recorder.values.count == 1)
        #expect(recorder.values.first?.inserted.count == 2)
    }

    @Test func aLogicPropertyStaysInSyncWithStoredRows() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let count = MutableProperty(try table.count())
        count <~ table.changes.compactMap { _ in try? table.count() }
        let recorder = count.record()
        try table.insert(listing("a", "A"))
        try table.insert([listing("b", "B"), listing("c", "C")])
        try table.delete(where: "code = :c", ["c": "a"])
        recorder.assertValues([0, 1, 3, 2])
    }

    @Test func observersMayQueryTheDatabase() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let titles = SeenTitles()
        let subscription = table.changes.observe { change in
            for id in change.inserted {
                if let title = try? table.find(primaryKey: .integer(id))?["title"]?.stringValue { titles.append(title) }
            }
        }
        try table.insert(listing("a", "Loft"))
        #expect(titles.all == ["Loft"])
        subscription.dispose()
    }

    @Test(.tags(.regression)) func everyCommittedInsertIsNotifiedWhileOtherThreadsFail() throws {
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

/// Titles an observer saw, from whichever thread it ran on.
final class SeenTitles: Sendable {
    private let titles = Mutex<[String]>([])

    func append(_ title: String) {
        titles.withLock { $0.append(title) }
    }

    var all: [String] { titles.withLock { $0 } }
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
