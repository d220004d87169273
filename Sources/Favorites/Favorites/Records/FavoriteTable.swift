import Foundation
import Persistence
import Signals

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
