import Favorites
import Foundation
import ViewModels

extension FavoritesViewModel {
    /// The rows for `favorites` at `now`.
    package init(favorites: [Favorite], now: Date) {
        self.init()
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
