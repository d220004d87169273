import Foundation
import Persistence
import Testing

@Suite struct InsertTests {
    @Test func insertReturnsRowIDsAndCreatesTheTableOnFirstUse() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let first = try table.insert(listing("a", "Loft"))
        let second = try table.insert(listing("b", "Studio"))
        #expect(second == first + 1)
        #expect(try table.count() == 2)
        let indexes = try table.database.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'listing'")
        let names = indexes.compactMap { $0["name"]?.stringValue }
        #expect(names.contains("listing_price"))
    }

    @Test func insertManyIsAllOrNothing() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let ids = try table.insert([listing("a", "A"), listing("b", "B")])
        #expect(ids.count == 2)
        #expect(throws: DatabaseError.self) {
            try table.insert([listing("c", "C"), listing("a", "duplicate code")])
        }
        #expect(try table.count() == 2)
        #expect(try table.find(where: "code = :code", ["code": "c"]).isEmpty)
    }

    @Test func valuesAndNamesWithSQLCharactersAreStoredVerbatim() throws {
        struct OddTable: Table {
            let database: Database
            let name = "odd \"table\"; DROP TABLE x; --"
            let primaryKey = "key"
            let columns = [Column("key", .integer), Column("weird \"col\" ; --", .text), Column("bytes", .blob)]
        }
        let folder = TemporaryFolder()
        let table = OddTable(database: folder.database())
        let text = "Robert'); DROP TABLE students;-- \"quoted\" 中文 😀 \\ %_"
        let bytes = Data([0, 1, 2, 255, 0])
        let id = try table.insert(["weird \"col\" ; --": .text(text), "bytes": .blob(bytes)])
        let row = try #require(try table.find(primaryKey: .integer(id)))
        #expect(row["weird \"col\" ; --"] == .text(text))
        #expect(row["bytes"] == .blob(bytes))
        #expect(try table.count(where: "\"weird \"\"col\"\" ; --\" = :t", ["t": .text(text)]) == 1)
    }

    @Test func recordChecksAndUnknownColumnsAreRefusedBeforeWriting() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        #expect(throws: DatabaseError(.invalidRecord, "a price cannot be negative")) {
            try table.insert(listing("a", "A", price: -1))
        }
        #expect(throws: DatabaseError(.invalidRecord, "table listing has no column colour")) {
            try table.insert(["code": "b", "title": "B", "colour": "red"])
        }
        #expect(try table.count() == 0)
    }

    @Test func constraintViolationsAreClearErrors() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert(listing("a", "A"))
        do {
            try table.insert(listing("a", "again"))
            Issue.record("expected a constraint error")
        } catch let error as DatabaseError {
            #expect(error.kind == .constraint)
            #expect(error.message.contains("UNIQUE"))
        }
        do {
            try table.insert(["code": "z"])
            Issue.record("expected a constraint error")
        } catch let error as DatabaseError {
            #expect(error.kind == .constraint)
        }
    }
}
