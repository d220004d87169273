import Foundation
import Persistence

/// A fresh folder for one test's database files, removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("persistence-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String = "test.sqlite") -> String {
        url.appendingPathComponent(name).path
    }

    /// A database of its own (not the shared registry), so tests stay independent.
    func database(_ name: String = "test.sqlite") -> Database {
        DatabaseRegistry().database(at: path(name))
    }
}

struct ListingTable: Table {
    let database: Database
    let name = "listing"
    let primaryKey = "id"
    let columns = [
        Column("id", .integer),
        Column("code", .text, notNull: true, unique: true),
        Column("title", .text, notNull: true),
        Column("price", .real),
        Column("rooms", .integer),
        Column("photo", .blob),
    ]
    let indexes = [TableIndex("listing_price", on: ["price"])]

    func check(_ row: Row) throws {
        if let price = row["price"]?.doubleValue, price < 0 {
            throw DatabaseError(.invalidRecord, "a price cannot be negative")
        }
    }
}

func listing(_ code: String, _ title: String, price: Double = 1_000, rooms: Int64 = 2) -> Row {
    ["code": .text(code), "title": .text(title), "price": .real(price), "rooms": .integer(rooms)]
}
