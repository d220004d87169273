import Favorites
import FavoritesCategory
import FeatureKit
import HomesScreens
import Mediator
import Persistence

/// The favourites as the app composes them: their table's migrations, the target that
/// builds their logic and screen, and `favs` on every screen.
@MainActor
package struct FavoritesFeature: Feature {
    /// The feature.
    package init() {}

    package var migrations: [Migration] { FavoritesDataCenter.migrations }

    package func register(in mediator: Mediator, with context: FeatureContext) {
        mediator.register(target: Mediator.favoritesTarget) { [unowned mediator] in
            FavoritesTarget(
                store: FavoritesDataCenter(database: context.database), mediator: mediator, now: context.now)
        }
    }

    package func commands(_ mediator: Mediator) -> [any SharedCommands] {
        [FavoritesCommands(mediator: mediator)]
    }
}
