import Foundation
import Signals

/// The favourites as live state: kept in sync with the stored rows, whichever part of the
/// app changes them (see `FavoritesDataCenter.observeAll()`).
@MainActor
package final class FavoritesLogic {
    /// Every favourite, newest first, and the last storage problem: one value per change.
    package let state: Property<FavoritesState>
    private let current = MutableProperty(FavoritesState())
    private let store: FavoritesDataCenter
    private let clock: @Sendable () -> Date
    /// The stored favourites, read now and after every change: kept, so it keeps observing.
    private let stored: Property<Result<[Favorite], any Error>>
    private let bag = DisposeBag()

    /// Logic over `store`; favourites are stamped with `clock`'s time when saved.
    package init(store: FavoritesDataCenter, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clock = clock
        state = Property(current)
        stored = store.observeAll()
        // On the main actor, the stored favourites are shown before `init` returns; a read
        // that failed keeps the favourites last read and says why, until a read succeeds
        // (one change: the favourites and no problem).
        stored.observeOnMainActor { [current] read in
            switch read {
            case .success(let favorites):
                current.modify { state in
                    state.favorites = favorites
                    state.problem = nil
                }
            case .failure(let error): current.value.problem = "favourites could not be read: \(error)"
            }
        }.dispose(in: bag)
    }

    /// Saves a listing; returns a problem to show, or nil.
    package func save(kind: String, listingID: Int, name: String, price: Int) -> String? {
        let now = clock()
        return perform {
            try store.save(Favorite(kind: kind, listingID: listingID, name: name, price: price, savedAt: now))
        }
    }

    /// Removes the listing's favourite; returns a problem to show, or nil.
    package func remove(kind: String, listingID: Int) -> String? {
        perform { try store.remove(kind: kind, listingID: listingID) }
    }

    /// Whether the listing is a favourite, now and as it changes.
    package func isSaved(kind: String, listingID: Int) -> Property<Bool> {
        state.map { $0.favorites.contains { $0.kind == kind && $0.listingID == listingID } }
    }

    private func perform(_ work: () throws -> Void) -> String? {
        do {
            try work()
            return nil
        } catch {
            let message = "favourites could not be saved: \(error)"
            current.value.problem = message
            return message
        }
    }
}
