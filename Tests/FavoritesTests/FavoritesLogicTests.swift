import Favorites
import Foundation
import Persistence
import Signals
import SignalsTesting
import Synchronization
import Testing

@MainActor @Suite struct FavoritesLogicTests {
    @Test func favouritesFollowTheStoredRowsWhoeverChangesThem() async throws {
        let database = DatabaseRegistry().database(at: NSTemporaryDirectory() + "favs-\(UUID().uuidString).sqlite")
        try Migrator(FavoritesDataCenter.migrations).migrate(database)
        let clock = SteppingClock(from: Date(timeIntervalSince1970: 1_000))
        let logic = FavoritesLogic(store: FavoritesDataCenter(database: database), clock: clock.now)
        let names = logic.state.map { $0.favorites.map(\.name) }.record()
        let saved = logic.isSaved(kind: "rent", listingID: 1).record()
        #expect(logic.save(kind: "rent", listingID: 1, name: "Loft", price: 1) == nil)
        #expect(logic.save(kind: "new", listingID: 2, name: "Villa", price: 2) == nil)
        try FavoritesDataCenter(database: database).remove(kind: "rent", listingID: 1)
        names.assertValues([[], ["Loft"], ["Villa", "Loft"], ["Villa"]])
        saved.assertValues([false, true, false])
    }

    /// A stored favourite that cannot be read is a problem to show, not an empty list;
    /// once the bad row is gone, the favourites are read again.
    @Test func favouritesThatCannotBeReadAreAProblemNotAnEmptyList() async throws {
        let database = DatabaseRegistry().database(at: NSTemporaryDirectory() + "favs-\(UUID().uuidString).sqlite")
        try Migrator(FavoritesDataCenter.migrations).migrate(database)
        try database.execute(
            "INSERT INTO favorite (kind, listingID, name, price, savedAt) VALUES ('rent', 1, 'Loft', 'a lot', 0)")
        let store = FavoritesDataCenter(database: database)
        let logic = FavoritesLogic(store: store)
        #expect(logic.state.value.favorites.isEmpty)
        #expect(logic.state.value.problem?.hasPrefix("favourites could not be read") == true)
        #expect(logic.save(kind: "new", listingID: 2, name: "Villa", price: 2) == nil)
        try store.remove(kind: "rent", listingID: 1)
        #expect(logic.state.value.favorites.map(\.name) == ["Villa"])
        #expect(logic.state.value.problem == nil, "a read that succeeds clears the problem of the one that failed")
    }
}

/// A clock that reads one second later at every call.
final class SteppingClock: Sendable {
    private let next: Mutex<Date>

    init(from start: Date) {
        next = Mutex(start)
    }

    @Sendable func now() -> Date {
        next.withLock { date in
            defer { date = date.addingTimeInterval(1) }
            return date
        }
    }
}
