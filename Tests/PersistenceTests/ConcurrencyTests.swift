import Dispatch
import Foundation
import Persistence
import Testing

@Suite struct ConcurrencyTests {
    @Test func manyThreadsInsertingAndReadingAddUp() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let failures = SeenCounts()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<100 {
                do {
                    if thread % 2 == 0 {
                        try table.insert(listing("t\(thread)-\(index)", "Home \(index)"))
                    } else {
                        _ = try table.count()
                        _ = try table.find(where: "price > :p", ["p": 0], limit: 5)
                        try table.insert(listing("t\(thread)-\(index)", "Home \(index)"))
                    }
                } catch {
                    failures.append(thread)
                }
            }
        }
        #expect(failures.values.isEmpty)
        #expect(try table.count() == 800)
    }

    @Test func theRegistryGivesOneDatabasePerFile() throws {
        let folder = TemporaryFolder()
        let registry = DatabaseRegistry()
        let first = registry.database(at: folder.path("a.sqlite"))
        let second = registry.database(at: folder.url.appendingPathComponent("./x/../a.sqlite").path)
        #expect(first === second)
        #expect(first !== registry.database(at: folder.path("b.sqlite")))
    }

    @Test func transactionsFromManyThreadsAreEachAtomic() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for batch in 0..<20 {
                try? table.database.transaction(.immediate) { _ in
                    for item in 0..<5 { try table.insert(listing("\(thread)-\(batch)-\(item)", "T")) }
                }
            }
        }
        #expect(try table.count() == 4 * 20 * 5)
    }
}
