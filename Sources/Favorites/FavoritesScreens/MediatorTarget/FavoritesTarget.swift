import Favorites
import FavoritesCategory
import Foundation
import Mediator
import Signals

/// The favourites' target: their screen (`homes://favorites/list`), and the questions
/// other features ask about favourites (saved, save, remove), answered by the one
/// `FavoritesLogic` it builds. Registered by `FavoritesFeature`; reached through the
/// favourites' category.
@MainActor
package final class FavoritesTarget: @MainActor MediatorTarget {
    private let logic: FavoritesLogic
    private unowned let mediator: Mediator
    private let now: @Sendable () -> Date
    private let saved: Property<Set<SavedListing>>

    /// A target answering with a logic over `store`; its screen opens listings through
    /// `mediator` and reads the time from `now`.
    package init(store: FavoritesDataCenter, mediator: Mediator, now: @escaping @Sendable () -> Date) {
        let logic = FavoritesLogic(store: store)
        self.logic = logic
        self.mediator = mediator
        self.now = now
        saved = logic.state.map { Set($0.favorites.map { SavedListing(kind: $0.kind, id: $0.listingID) }) }
    }

    package func registerActions(_ actions: TargetActions) {
        actions.on("list", allowsRemoteCalls: true) { [logic, unowned mediator, now] _ in
            FavoritesController(favorites: logic, mediator: mediator, now: now)
        }
        actions.on("saved") { [saved] _ in saved }
        actions.on("save") { [logic] params in
            guard let kind = params.string("kind"), let id = params.int("id"), let name = params.string("name"),
                let price = params.int("price")
            else {
                throw MediatorError.badParameters("save needs a kind, an id, a name and a price")
            }
            return logic.save(kind: kind, listingID: id, name: name, price: price)
        }
        actions.on("remove") { [logic] params in
            guard let kind = params.string("kind"), let id = params.int("id") else {
                throw MediatorError.badParameters("remove needs a kind and an id")
            }
            return logic.remove(kind: kind, listingID: id)
        }
    }
}
