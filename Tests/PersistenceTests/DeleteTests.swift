import Foundation
import Persistence
import Testing

@Suite struct DeleteTests {
    @Test func deleteByConditionKeyAndTruncate() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert([listing("a", "A", rooms: 1), listing("b", "B", rooms: 2), listing("c", "C", rooms: 2)])
        #expect(try table.delete(where: "rooms = :r", ["r": 2]) == 2)
        #expect(try table.delete(primaryKey: 1))
        #expect(try !table.delete(primaryKey: 1))
        try table.insert(listing("d", "D"))
        try table.truncate()
        #expect(try table.count() == 0)
    }
}
