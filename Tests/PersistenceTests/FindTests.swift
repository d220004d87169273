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
        let rows = try table.find(
            where: "rooms <= :rooms AND price > :floor", ["rooms": 3, "floor": 1_600],
            orderBy: "price DESC", limit: 5)
        #expect(rows.compactMap { $0["title"]?.stringValue } == ["Loft", "Flat"])
        #expect(try table.find(where: "price > :p", ["p": 1], limit: 1).count == 1)
    }

    @Test func allFirstCountAndInList() throws {
        let (_, table) = try filled()
        #expect(try table.findAll().count == 4)
        #expect(try table.first(where: "rooms = :r", ["r": 1], orderBy: "price")?["code"] == "b")
        #expect(try table.count(where: "rooms = :r", ["r": 1]) == 2)
        #expect(
            try table.find("code", in: ["a", "d", "zz"]).compactMap { $0["title"]?.stringValue } == ["Loft", "Flat"])
        #expect(try table.find("code", in: []).isEmpty)
    }

    @Test func aMissingParameterIsAClearError() throws {
        let (_, table) = try filled()
        #expect(throws: DatabaseError.self) { try table.find(where: "rooms = :rooms", [:]) }
        #expect(throws: DatabaseError.self) { try table.database.fetch("SELECT ?", []) }
    }
}

/// A column name the table does not have is an error naming it, never a string literal
/// that matches every row (SQLite's legacy reading of an unknown double-quoted name).
@Suite struct UnknownColumnTests {
    func filled() throws -> (TemporaryFolder, ListingTable) {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert([listing("a", "Loft"), listing("b", "Studio")])
        return (folder, table)
    }

    @Test func findByAnUnknownColumnNamesIt() throws {
        let (_, table) = try filled()
        do {
            let rows = try table.find("colour", in: ["colour"])
            Issue.record("expected an error, got \(rows.count) rows")
        } catch let error as DatabaseError {
            #expect(error.message == "no column \"colour\" in table listing")
        }
        #expect(throws: DatabaseError.self) { try table.find("colour", in: []) }
    }

    @Test func anUnknownColumnInAConditionIsAnErrorNotText() throws {
        let (_, table) = try filled()
        #expect(throws: DatabaseError.self) { try table.find(where: "\"colour\" = 'colour'") }
        #expect(throws: DatabaseError.self) { try table.count(where: "\"colour\" = 'colour'") }
        #expect(throws: DatabaseError.self) { try table.findAll(orderBy: "\"colour\"") }
    }

    @Test func updateAndDeleteByAnUnknownColumnChangeNothing() throws {
        let (_, table) = try filled()
        #expect(throws: DatabaseError.self) { try table.update(["title": "Gone"], where: "\"colour\" = 'colour'") }
        #expect(throws: DatabaseError.self) { try table.delete(where: "\"colour\" = 'colour'") }
        #expect(throws: DatabaseError.self) { try table.update(["colour": "red"], where: "1") }
        #expect(try table.findAll().compactMap { $0["title"]?.stringValue } == ["Loft", "Studio"])
    }

    @Test func upsertOnAnUnknownKeyNamesIt() throws {
        let (_, table) = try filled()
        #expect(throws: DatabaseError(.sqlite(code: 1), "no column \"colour\" in table listing")) {
            try table.upsert(listing("c", "Villa"), uniqueKey: ["colour"])
        }
        #expect(try table.count() == 2)
    }

    @Test func aColumnAddedLaterIsFound() throws {
        let (_, table) = try filled()
        #expect(throws: DatabaseError.self) { try table.find("note", in: ["x"]) }
        try table.database.execute("ALTER TABLE listing ADD COLUMN note TEXT")
        try table.database.execute("UPDATE listing SET note = 'x' WHERE code = 'b'")
        #expect(try table.find("note", in: ["x"]).compactMap { $0["code"]?.stringValue } == ["b"])
    }

    @Test func anIndexOnAnUnknownColumnIsRefused() throws {
        struct Misdeclared: Table {
            let database: Database
            let name = "misdeclared"
            let primaryKey = "id"
            let columns = [Column("id", .integer), Column("code", .text)]
            let indexes = [TableIndex("misdeclared_colour", on: ["colour"], unique: true)]
        }
        let folder = TemporaryFolder()
        let table = Misdeclared(database: folder.database())
        #expect(throws: DatabaseError.self) { try table.insert(["code": "a"]) }
    }
}
