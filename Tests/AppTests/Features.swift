import Favorites
import FeatureKit
import Foundation
import HomesScreens
import HomesTesting
import Listings
import ListingsScreens
import Mediator
import Networking
import Persistence
import Testing

@testable import App

/// The features put together as the app's composition root does (`Homes.features`,
/// composed), over a fresh database, for tests of screens without the REPL process.
@MainActor
struct Features {
    let engine: APIEngine
    let database: Database
    let composition: Composition
    let mediator = Mediator(scheme: "homes")
    let now: @Sendable () -> Date

    /// The app's features, or only `features`, registered with a mediator of their own.
    init(_ harness: HomesHarness, now: Date, features: [any Feature] = Homes.features) {
        database = DatabaseRegistry().database(at: NSTemporaryDirectory() + "homes-test-\(UUID().uuidString).sqlite")
        engine = harness.engine
        composition = Composition(features)
        self.now = { now }
        do {
            try Migrator(composition.migrations).migrate(database)
        } catch {
            Issue.record("the features' migrations failed: \(error)")
        }
        composition.register(in: mediator, with: FeatureContext(engine: engine, database: database, now: self.now))
    }

    /// The list screen of `logic`, as the listings' target makes it.
    func listings(_ logic: ListingLogic) -> ListingListController {
        ListingListController(logic: logic, mediator: mediator, now: now)
    }

    /// The commands every screen shares, as the app answers them: the features', then the app's.
    var sharedCommands: any SharedCommands {
        composition.commands(mediator, then: [AppCommands(mediator: mediator, reachability: engine.reachability)])
    }

    /// The favourites' table, written as another part of the app would write it.
    var favoritesStore: FavoritesDataCenter {
        FavoritesDataCenter(database: database)
    }
}
