import Favorites
import Foundation
import HomesScreens
import HomesTesting
import Listings
import ListingsScreens
import Mediator
import Networking
import Persistence

@testable import App

/// The features put together as the app's composition root does (`FeatureTargets`), over
/// a fresh database, for tests of screens without the REPL process.
@MainActor
struct Features {
    let engine: APIEngine
    let favorites: FavoritesLogic
    let mediator = Mediator(scheme: "homes")
    let now: @Sendable () -> Date

    init(_ harness: HomesHarness, now: Date) {
        let database = DatabaseRegistry().database(
            at: NSTemporaryDirectory() + "homes-test-\(UUID().uuidString).sqlite")
        engine = harness.engine
        favorites = FavoritesLogic(store: FavoritesDataCenter(database: database))
        self.now = { now }
        FeatureTargets(engine: engine, favorites: favorites, now: self.now).register(in: mediator)
    }

    /// The list screen of `logic`, as the app makes it.
    func listings(_ logic: ListingLogic) -> ListingListController {
        ListingListController(logic: logic, mediator: mediator, now: now)
    }

    /// The commands every screen shares, as the app answers them.
    var sharedCommands: any SharedCommands {
        AppCommands(mediator: mediator, reachability: engine.reachability)
    }
}
