import Foundation
import Persistence
import Signals
import Testing

// The README's persistence example, on a temporary file.

private struct FavoriteTable: Table {
    let database: Database
    let name = "favorite"
    let primaryKey = "id"
    let columns = [
        Column("id", .integer), Column("listingCode", .text, notNull: true, unique: true),
        Column("title", .text, notNull: true), Column("savedAt", .real),
    ]

    func check(_ row: Row) throws {
        if row["title"]?.stringValue?.isEmpty == true {
            throw DatabaseError(.invalidRecord, "a favourite needs a title")
        }
    }
}

private struct Favorite: Codable, Record {
    var listingCode: String
    var title: String
    var savedAt: Date
}

@Suite struct PersistenceReadmeExampleTests {
    @Test func persistenceInOneExample() throws {
        let folder = TemporaryFolder()
        let database = DatabaseRegistry.shared.database(at: folder.path("homes-example.sqlite"))
        try Migrator([
            Migration("favourites") { try FavoriteTable(database: $0).prepare() }
        ]).migrate(database)

        let favorites = FavoriteTable(database: database)
        // The count now and after every commit that changes the table, or the error reading it:
        // read and subscribed in one step, so no write is missed.
        let count = favorites.observe { try $0.count() }

        try favorites.upsert(Favorite(listingCode: "r-12", title: "Loft", savedAt: Date()), uniqueKey: ["listingCode"])
        let saved = try favorites.records(Favorite.self, where: "title LIKE :pattern", ["pattern": "L%"])
        #expect(saved.map(\.title) == ["Loft"])
        #expect(try count.value.get() == 1)
        #expect(throws: DatabaseError(.invalidRecord, "a favourite needs a title")) {
            try favorites.insert(Favorite(listingCode: "x", title: "", savedAt: Date()))
        }
    }
}
