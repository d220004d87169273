import HomesScreens
import Mediator
import Networking
import Persistence

/// The app's features put together, in the order listed: what the composition root asks
/// of all of them at once. Their services, migrations, targets, commands and observers
/// follow that order (so `help` lists the features' commands in it), and the first
/// feature with a home screen gives the first screen.
@MainActor
package struct Composition {
    /// The features, in order.
    package let features: [any Feature]

    /// The features `features`, in this order.
    package init(_ features: [any Feature]) {
        self.features = features
    }

    /// Every feature's API services.
    package func services(_ api: APISettings) -> [APIService] {
        features.flatMap { $0.services(api) }
    }

    /// Every feature's migrations, feature after feature.
    package var migrations: [Migration] {
        features.flatMap(\.migrations)
    }

    /// Registers every feature's targets with `mediator`.
    package func register(in mediator: Mediator, with context: FeatureContext) {
        for feature in features { feature.register(in: mediator, with: context) }
    }

    /// Every feature's commands, then `own` (the app's), as one set.
    package func commands(_ mediator: Mediator, then own: [any SharedCommands] = []) -> SharedCommandGroup {
        SharedCommandGroup(features.flatMap { $0.commands(mediator) } + own)
    }

    /// Every feature's screen observers, made now.
    package func screenObservers(_ context: FeatureContext) -> [any ScreenLifecycleObserver] {
        features.flatMap { $0.screenObservers(context) }
    }

    /// The first screen: the home of the first feature that has one, reached through
    /// `mediator`; a notice saying why when none opens.
    package func home(_ mediator: Mediator) -> any Screen {
        switch features.lazy.compactMap({ $0.home(mediator) }).first {
        case .push(let screen)?, .pushAfterError(let screen, _)?: return screen
        case .error(let message)?, .note(let message)?: return NoticeController(message: message)
        case .handled?, .secret?, nil: return NoticeController(message: "No feature has a first screen.")
        }
    }
}
