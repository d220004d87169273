import HomesScreens
import Mediator
import Networking
import Persistence

/// A feature as the app composes it: one value carrying everything the app needs of it,
/// so the composition root lists features and knows none of their types.
///
/// Each feature has one, `<Feature>Feature` (`ListingsFeature`), in the module that can
/// see its targets: its screens module, or its business module when it has no screens.
/// It registers its own mediator targets, under the names its category calls; the
/// targets build the feature's logic when the mediator first asks for them, and its
/// screens when asked for a screen. Everything has a default: a feature says only what
/// it has.
@MainActor
package protocol Feature: Sendable {
    /// The API services its calls go to, reached as `api` says. None by default.
    func services(_ api: APISettings) -> [APIService]
    /// The migrations of the tables it keeps, in the order they apply. None by default.
    var migrations: [Migration] { get }
    /// Registers its mediator targets, each made on its first call with what it needs of
    /// `context`. None by default.
    func register(in mediator: Mediator, with context: FeatureContext)
    /// The commands it adds to screens it did not build (each set says on which), with
    /// their flags; they reach the feature through `mediator`. None by default.
    func commands(_ mediator: Mediator) -> [any SharedCommands]
    /// What watches every screen appear and disappear (page views), made once, at start,
    /// with `context`. None by default.
    func screenObservers(_ context: FeatureContext) -> [any ScreenLifecycleObserver]
    /// The screen the app opens with, asked of `mediator` like any other, when this
    /// feature has the app's first screen; nil by default.
    func home(_ mediator: Mediator) -> CommandOutcome?
}

extension Feature {
    /// None.
    package func services(_ api: APISettings) -> [APIService] { [] }
    /// None.
    package var migrations: [Migration] { [] }
    /// None.
    package func register(in mediator: Mediator, with context: FeatureContext) {}
    /// None.
    package func commands(_ mediator: Mediator) -> [any SharedCommands] { [] }
    /// None.
    package func screenObservers(_ context: FeatureContext) -> [any ScreenLifecycleObserver] { [] }
    /// None.
    package func home(_ mediator: Mediator) -> CommandOutcome? { nil }
}
