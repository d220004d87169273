import Foundation
import Persistence
import Signals

/// The favourites, as the business sees them: save, remove, list, ask.
package final class FavoritesDataCenter: Sendable {
    private let table: FavoriteTable

    /// Favourites stored in `database`.
    package init(database: Database) {
        table = FavoriteTable(database: database)
    }

    /// The migrations this data center needs.
    package static let migrations = [
        Migration("favourites") { try FavoriteTable(database: $0).prepare() }
    ]

    /// Saves `favorite` (again, if it was saved before).
    package func save(_ favorite: Favorite) throws {
        try table.upsert(favorite, uniqueKey: ["kind", "listingID"])
    }

    /// Removes the favourite for a listing; true if there was one.
    @discardableResult
    package func remove(kind: String, listingID: Int) throws -> Bool {
        try table.delete(
            where: "kind = :kind AND listingID = :id", ["kind": .text(kind), "id": .integer(Int64(listingID))]) > 0
    }

    /// Every favourite, newest first, now and after every committed change, or the error
    /// reading them (see `Database.observe(tables:_:)`). Keep the property to keep
    /// observing.
    package func observeAll() -> Property<Result<[Favorite], any Error>> {
        table.observe(Favorite.self, orderBy: "savedAt DESC, id DESC")
    }
}
