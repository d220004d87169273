import Foundation
import Persistence
import Testing

@Suite struct FindTests {
    func filled() throws -> (TemporaryFolder, ListingTable) {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert([
            listing("a", "Loft", price: 3_000, rooms: 1),
            listing("b", "Studio", price: 1_500, rooms: 1),
            listing("c", "Villa", price: 9_000, rooms: 5),
            listing("d", "Flat", price: 2_000, rooms: 3),
        ])
        return (folder, table)
    }

    @Test func byPrimaryKey() throws {
        let (_, table) = try filled()
        #expect(try table.find(primaryKey: 3)?["title"] == "Villa")
        #expect(try table.find(primaryKey: 99) == nil)
    }

    @Test func whereWithNamedParametersOrderAndLimit() throws {
        let (_, table) = try filled()
        let rows = try table.find(where: "rooms <= :rooms AND price > :floor", ["rooms": 3, "floor": 1_600],
                                  orderBy: "price DESC", limit: 5)
        #expect(rows.compactMap { $0["title"]?.stringValue } == ["Loft", "Flat"])
        #expect(try table.find(where: "price > :p", ["p": 1], limit: 1).count == 1)
    }

    @Test func allFirstCountAndInList() throws {
        let (_, table) = try filled()
        #expect(try table.findAll().count == 4)
        #expect(try table.first(where: "rooms = :r", ["r": 1], orderBy: "price")?["code"] == "b")
        #expect(try table.count(where: "rooms = :r", ["r": 1]) == 2)
        #expect(try table.find("code", in: ["a", "d", "zz"]).compactMap { $0["title"]?.stringValue } == ["Loft", "Flat"])
        #expect(try table.find("code", in: []).isEmpty)
    }

    @Test func aMissingParameterIsAClearError() throws {
        let (_, table) = try filled()
        #expect(throws: DatabaseError.self) { try table.find(where: "rooms = :rooms", [:]) }
        #expect(throws: DatabaseError.self) { try table.database.fetch("SELECT ?", []) }
    }
}
