import FeatureKit
import HomesScreens
import LoginCategory
import Mediator

/// Signing in as the app composes it: the account's target, which builds the one
/// `LoginLogic` of the session, and the account's commands on every screen.
@MainActor
package struct LoginFeature: Feature {
    /// The feature.
    package init() {}

    package func register(in mediator: Mediator, with context: FeatureContext) {
        mediator.register(target: Mediator.accountTarget) { AccountTarget(engine: context.engine) }
    }

    package func commands(_ mediator: Mediator) -> [any SharedCommands] {
        [AccountCommands(mediator: mediator)]
    }
}
