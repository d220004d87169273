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

@Suite struct UpsertTests {
    @Test func upsertInsertsThenUpdatesByUniqueKey() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let first = try table.upsert(listing("a", "Loft", price: 1), uniqueKey: ["code"])
        let second = try table.upsert(listing("a", "Loft renovated", price: 2), uniqueKey: ["code"])
        #expect(first == second)
        #expect(try table.count() == 1)
        #expect(try table.find(primaryKey: .integer(first))?["title"] == "Loft renovated")
        let other = try table.upsert(listing("b", "Other"), uniqueKey: ["code"])
        #expect(other != first)
    }

    @Test func upsertOnAColumnThatIsNotUniqueIsAClearError() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        #expect(throws: DatabaseError.self) { try table.upsert(listing("a", "A"), uniqueKey: ["title"]) }
    }
}
