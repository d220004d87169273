import Foundation
import Persistence
import Signals

/// The saved-search table: one row per kind and filters.
struct SavedSearchTable: Table {
    let database: Database
    let name = "saved_search"
    let primaryKey = "id"
    let columns = [
        Column("id", .integer), Column("kind", .text, notNull: true), Column("filters", .text, notNull: true),
        Column("name", .text), Column("savedAt", .real, notNull: true),
    ]
    let indexes = [TableIndex("saved_search_query", on: ["kind", "filters"], unique: true)]
}
