import Favorites
import Foundation

/// What the favourites screen shows.
public struct FavoritesViewModel: Equatable, Sendable {
    /// One saved listing as the list shows it.
    public struct Row: Equatable, Sendable {
        /// Its number in the list (what `open N` takes).
        public let number: String
        /// Its name.
        public let name: String
        /// Rental, new home or resale.
        public let kind: String
        /// Its price, formatted.
        public let price: String
        /// How long ago it was saved.
        public let saved: String
    }

    /// The rows, in the order saved.
    public var rows: [Row] = []
    /// The footer.
    public var footer = "no favourites yet - fav N on a list saves one"

    /// An empty list.
    public init() {}

    /// The rows for `favorites` at `now`.
    public init(favorites: [Favorite], now: Date) {
        let kinds = ["rent": "rental", "new": "new home", "resale": "resale"]
        rows = favorites.enumerated().map { index, favorite in
            Row(
                number: "\(index + 1)", name: favorite.name, kind: kinds[favorite.kind] ?? favorite.kind,
                price: Formatting.price(favorite.price, monthly: favorite.kind == "rent"),
                saved: Formatting.age(of: favorite.savedAt, now: now))
        }
        if !favorites.isEmpty { footer = "\(favorites.count) saved - open N, unfav N" }
    }
}
