import Foundation
import Persistence
import Signals

/// A saved listing. The favourites module knows listings only by kind name and id, so
/// it does not depend on the listings module.
public struct Favorite: Codable, Equatable, Sendable, Record {
    /// The listing's kind (`rent`, `new`, `resale`).
    public var kind: String
    /// The listing's id within its kind.
    public var listingID: Int
    /// Its name when it was saved.
    public var name: String
    /// Its price when it was saved, in yuan.
    public var price: Int
    /// When it was saved.
    public var savedAt: Date

    /// A favourite.
    public init(kind: String, listingID: Int, name: String, price: Int, savedAt: Date) {
        self.kind = kind
        self.listingID = listingID
        self.name = name
        self.price = price
        self.savedAt = savedAt
    }
}

/// The favourite table: weak logic only.
struct FavoriteTable: Table {
    let database: Database
    let name = "favorite"
    let primaryKey = "id"
    let columns = [
        Column("id", .integer), Column("kind", .text, notNull: true), Column("listingID", .integer, notNull: true),
        Column("name", .text, notNull: true), Column("price", .integer), Column("savedAt", .real),
    ]
    let indexes = [TableIndex("favorite_listing", on: ["kind", "listingID"], unique: true)]
}

/// The favourites, as the business sees them: save, remove, list, ask.
public final class FavoritesDataCenter: Sendable {
    private let table: FavoriteTable

    /// Favourites stored in `database`.
    public init(database: Database) {
        table = FavoriteTable(database: database)
    }

    /// The migrations this data center needs.
    public static let migrations = [
        Migration("favourites") { try FavoriteTable(database: $0).prepare() },
    ]

    /// Saves `favorite` (again, if it was saved before).
    public func save(_ favorite: Favorite) throws {
        try table.upsert(favorite, uniqueKey: ["kind", "listingID"])
    }

    /// Removes the favourite for a listing; true if there was one.
    @discardableResult
    public func remove(kind: String, listingID: Int) throws -> Bool {
        try table.delete(where: "kind = :kind AND listingID = :id", ["kind": .text(kind), "id": .integer(Int64(listingID))]) > 0
    }

    /// Every favourite, newest first.
    public func all() throws -> [Favorite] {
        try table.records(Favorite.self, orderBy: "savedAt DESC, id DESC")
    }

    /// Sends `()` after every committed change of the favourites.
    public var changes: Signal<Void> {
        table.changes.map { _ in () }
    }
}
