import Foundation
import Persistence
import Signals

/// The saved searches, as the business sees them: save, remove, list.
package final class SavedSearchesDataCenter: Sendable {
    private let table: SavedSearchTable

    /// Saved searches stored in `database`.
    package init(database: Database) {
        table = SavedSearchTable(database: database)
    }

    /// The migrations this data center needs.
    package static let migrations = [
        Migration("saved searches") { try SavedSearchTable(database: $0).prepare() }
    ]

    /// Saves `search` (again, with its new name and time, if the same kind and filters
    /// were saved before).
    package func save(_ search: SavedSearch) throws {
        try table.upsert(search, uniqueKey: ["kind", "filters"])
    }

    /// Removes the saved search of `search`'s kind and filters; true if there was one.
    @discardableResult
    package func remove(_ search: SavedSearch) throws -> Bool {
        try table.delete(
            where: "kind = :kind AND filters = :filters",
            ["kind": .text(search.kind), "filters": .text(search.filters)])
            > 0
    }

    /// Every saved search, the last saved first, now and after every committed change,
    /// or the error reading them (see `Table.observe`). Keep the property to keep
    /// observing.
    package func observeAll() -> Property<Result<[SavedSearch], any Error>> {
        table.observe(SavedSearch.self, orderBy: "savedAt DESC, id DESC")
    }
}
