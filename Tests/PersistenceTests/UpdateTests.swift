import Foundation
import Persistence
import Testing

@Suite struct UpdateTests {
    @Test func updateByConditionAndByKey() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert([listing("a", "A", rooms: 1), listing("b", "B", rooms: 1), listing("c", "C", rooms: 2)])
        #expect(try table.update(["price": 10], where: "rooms = :r", ["r": 1]) == 2)
        #expect(try table.update(primaryKey: 3, ["title": "C2"]))
        #expect(try !table.update(primaryKey: 42, ["title": "none"]))
        #expect(try table.find(primaryKey: 3)?["title"] == "C2")
        #expect(try table.count(where: "price = 10") == 2)
    }

    @Test func updatesAreCheckedToo() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert(listing("a", "A"))
        #expect(throws: DatabaseError.self) { try table.update(primaryKey: 1, ["price": -5]) }
        #expect(try table.find(primaryKey: 1)?["price"] == .real(1_000))
    }
}
