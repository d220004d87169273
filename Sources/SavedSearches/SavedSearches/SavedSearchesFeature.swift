import FeatureKit
import HomesScreens
import Mediator
import Persistence

/// Saved searches as the app composes them: their table's migrations, the target that
/// builds their logic and screen, and `save` and `saved` on every listing list.
@MainActor
package struct SavedSearchesFeature: Feature {
    /// The feature.
    package init() {}

    package var migrations: [Migration] { SavedSearchesDataCenter.migrations }

    package func register(in mediator: Mediator, with context: FeatureContext) {
        mediator.register(target: Mediator.savedSearchesTarget) { [unowned mediator] in
            SavedSearchesTarget(
                store: SavedSearchesDataCenter(database: context.database), mediator: mediator, now: context.now)
        }
    }

    package func commands(_ mediator: Mediator) -> [any SharedCommands] {
        [SavedSearchCommands(mediator: mediator)]
    }
}
