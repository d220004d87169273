import Foundation
import Persistence
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
}
