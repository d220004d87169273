import FavoritesCategory
import Foundation
import HomesScreens
import HomesTesting
import Listings
import LoginCategory
import Mediator
import Signals
import SignalsTesting
import Testing

/// How many view models a screen builds per command: every new view model is one `changes`
/// value of its controller, so counting those counts the view models.
@MainActor @Suite struct ViewModelCountTests {
    /// Runs `command` on `screen` and counts the view models it builds until every delivery
    /// it caused has landed.
    func count(_ harness: HomesHarness, _ screen: any Screen, _ command: String, _ arguments: [String] = [])
        async -> Int
    {
        let changes = screen.changes.record()
        _ = await harness.run { screen.handle(command, arguments) }
        await harness.flush()
        return changes.values.count
    }

    func pushed(_ outcome: CommandOutcome) -> (any Screen)? {
        if case .push(let screen) = outcome { return screen }
        return nil
    }

    @Test func oneViewModelPerChange() async throws {
        let (harness, context) = ScreenTests().setUp()
        let list = context.listings(ListingLogic(engine: harness.engine))
        var counts: [(String, Int)] = []
        for (command, arguments) in [
            ("list", ["rent"]), ("more", []), ("list", ["new"]), ("filter", ["rooms", "2"]), ("fav", ["1"]),
            ("refresh", []), ("filter", ["clear"]),
        ] {
            counts.append(
                ("list: \(command) \(arguments.joined(separator: " "))", await count(harness, list, command, arguments))
            )
        }
        let detail = try #require(pushed(await harness.run { list.handle("open", ["2"]) } ?? .handled))
        await harness.flush()
        for command in ["refresh", "fav", "unfav"] {
            counts.append(("detail: \(command)", await count(harness, detail, command)))
        }
        let login = try #require(pushed(await harness.run { context.mediator.loginForm() }))
        for (command, arguments) in [("user", ["ab"]), ("user", ["mei"]), ("password", ["homes2026"]), ("submit", [])] {
            counts.append(
                (
                    "login: \(command) \(arguments.joined(separator: " "))",
                    await count(harness, login, command, arguments)
                ))
        }
        let favourites = try #require(pushed(await harness.run { context.mediator.favoritesList() }))
        counts.append(("favourites: unfav 1", await count(harness, favourites, "unfav", ["1"])))
        // A command that loads changes the logic twice, when the call starts and when it
        // ends; one that does not load, once. (Before one state per logic: 3, 3, 5, 6, 1, 4,
        // 5; 2, 1, 1; 1, 1, 1, 3; 1.)
        #expect(counts.map(\.1) == [2, 2, 2, 2, 1, 2, 2, 2, 1, 1, 1, 1, 1, 2, 1], "\(counts)")
    }
}
