import HomesScreens
import ListingsCategory
import Mediator
import Signals

extension Mediator {
    /// The name the favourites' target is registered under.
    package static let favoritesTarget = "favorites"
}

/// The favourites' category: the typed calls other features and the app make to the
/// favourites' target, which answers them with its one `FavoritesLogic`.
@MainActor
extension Mediator {
    /// The favourites screen.
    package func favoritesList() -> CommandOutcome {
        outcome(of: perform(target: Self.favoritesTarget, action: "list"))
    }

    /// The listings saved as favourites, now and as they change; none when favourites
    /// are not available.
    package func savedListings() -> Property<Set<SavedListing>> {
        perform(target: Self.favoritesTarget, action: "saved").value(as: Property<Set<SavedListing>>.self)
            ?? Property(value: [])
    }

    /// Saves the listing `id` of `kind` as a favourite, with the `name` and `price` (in
    /// yuan) to show for it; returns a problem to show, or nil.
    package func saveFavorite(kind: ListingKind, id: Int, name: String, price: Int) -> String? {
        problem(
            of: perform(
                target: Self.favoritesTarget, action: "save",
                params: ["kind": kind.rawValue, "id": id, "name": name, "price": price]))
    }

    /// Forgets the favourite listing `id` of `kind`; returns a problem to show, or nil.
    package func forgetFavorite(kind: ListingKind, id: Int) -> String? {
        problem(of: perform(target: Self.favoritesTarget, action: "remove", params: ["kind": kind.rawValue, "id": id]))
    }

    private func problem(of outcome: MediatorOutcome) -> String? {
        if let notFound = outcome.notFound { return "favourites are not available: \(notFound.description)" }
        return outcome.value(as: String.self)
    }
}
