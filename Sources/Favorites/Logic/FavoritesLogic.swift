import Foundation
import Signals

/// The favourites as live state: kept in sync with the stored rows, whichever part of the
/// app changes them (see `FavoritesDataCenter.observeAll()`).
@MainActor
public final class FavoritesLogic {
    /// Every favourite, newest first.
    public let favorites: Property<[Favorite]>
    /// The last storage problem, for the user.
    public let problem: Property<String?>

    private let store: FavoritesDataCenter
    private let clock: @Sendable () -> Date
    /// The stored favourites, read now and after every change: kept, so it keeps observing.
    private let stored: Property<Result<[Favorite], any Error>>
    private let favoritesState = MutableProperty<[Favorite]>([])
    private let problemState = MutableProperty<String?>(nil)
    private let bag = DisposeBag()

    /// Logic over `store`; favourites are stamped with `clock`'s time when saved.
    public init(store: FavoritesDataCenter, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clock = clock
        stored = store.observeAll()
        favorites = Property(favoritesState)
        problem = Property(problemState)
        // On the main actor, the stored favourites are shown before `init` returns.
        stored.observeOnMainActor { [weak self] in self?.show($0) }.dispose(in: bag)
    }

    /// Saves a listing; returns a problem to show, or nil.
    public func save(kind: String, listingID: Int, name: String, price: Int) -> String? {
        let now = clock()
        return perform {
            try store.save(Favorite(kind: kind, listingID: listingID, name: name, price: price, savedAt: now))
        }
    }

    /// Removes the listing's favourite; returns a problem to show, or nil.
    public func remove(kind: String, listingID: Int) -> String? {
        perform { try store.remove(kind: kind, listingID: listingID) }
    }

    /// Whether the listing is a favourite, now and as it changes.
    public func isSaved(kind: String, listingID: Int) -> Property<Bool> {
        favorites.map { $0.contains { $0.kind == kind && $0.listingID == listingID } }.skipRepeats()
    }

    private func perform(_ work: () throws -> Void) -> String? {
        do {
            try work()
            return nil
        } catch {
            let message = "favourites could not be saved: \(error)"
            problemState.value = message
            return message
        }
    }

    /// Shows what was read; a read that failed keeps the favourites last read and says why.
    private func show(_ read: Result<[Favorite], any Error>) {
        switch read {
        case .success(let favorites): favoritesState.value = favorites
        case .failure(let error): problemState.value = "favourites could not be read: \(error)"
        }
    }
}
