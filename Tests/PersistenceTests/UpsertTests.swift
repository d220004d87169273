import Dispatch
import Foundation
import Persistence
import Signals
import SignalsTesting
import Testing

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

    @Test(.tags(.regression)) func upsertingANilPropertyClearsTheColumnAndEnumsAreQueryable() throws {
        let folder = TemporaryFolder()
        let table = NoteTable(database: folder.database())
        let token = UUID()
        try table.upsert(Note(key: "k", title: "Loft", status: .active, token: token), uniqueKey: ["key"])
        try table.upsert(Note(key: "k", title: nil, status: .active, token: token), uniqueKey: ["key"])
        #expect(try table.records(Note.self) == [Note(key: "k", title: nil, status: .active, token: token)])
        #expect(try table.count(where: "status = :s", ["s": "active"]) == 1)
        #expect(try table.count(where: "token = :t", ["t": .text(token.uuidString)]) == 1)
    }
}
