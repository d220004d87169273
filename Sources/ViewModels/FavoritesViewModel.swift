import Favorites
import Foundation

/// What the favourites screen shows.
public struct FavoritesViewModel: Equatable, Sendable {
    /// Rows: number, name, kind, price, saved.
    public var rows: [[String]] = []
    /// The footer.
    public var footer = "no favourites yet - fav N on a list saves one"

    /// An empty list.
    public init() {}

    /// The rows for `favorites` at `now`.
    public init(favorites: [Favorite], now: Date) {
        let kinds = ["rent": "rental", "new": "new home", "resale": "resale"]
        rows = favorites.enumerated().map { index, favorite in
            ["\(index + 1)", favorite.name, kinds[favorite.kind] ?? favorite.kind,
             Formatting.price(favorite.price, monthly: favorite.kind == "rent"),
             Formatting.age(of: favorite.savedAt, now: now)]
        }
        if !favorites.isEmpty { footer = "\(favorites.count) saved - open N, unfav N" }
    }
}
