import Favorites
import Foundation
import HomesScreens
import HomesTesting
import Listings
import ListingsCategory
import ListingsScreens
import Mediator
import Persistence
import Signals
import SignalsTesting
import Testing
import TextViews

@MainActor @Suite struct ListingListControllerTests {
    let now = Date(timeIntervalSince1970: 1_763_700_000)

    @Test func intentsReachTheLogicAndTheViewShowsTheResult() async throws {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let context = context(harness)
        let controller = await harness.run { context.listings(logic) }
        await harness.run { logic.show(.rent) }
        var lines = await harness.run { controller.rootView.render(width: 80) }
        #expect(lines.first == "Rentals")
        #expect(lines.last == "8 shown - type more for the next page")
        #expect(await harness.run { controller.handle("more", []) }.map(isHandled) == true)
        lines = await harness.run { controller.rootView.render(width: 80) }
        #expect(lines.last == "16 shown - type more for the next page")
        _ = await harness.run { controller.handle("filter", ["district", "静安"]) }
        lines = await harness.run { controller.rootView.render(width: 80) }
        #expect(lines.first == "Rentals (district=静安)")
        #expect(lines.dropFirst(3).dropLast().allSatisfy { $0.contains("Jing'an") })
        // The district's two names find the same listings.
        _ = await harness.run { controller.handle("filter", ["district", "Jing'an"]) }
        let latin = await harness.run { controller.rootView.render(width: 80) }
        #expect(Array(latin.dropFirst(3)) == Array(lines.dropFirst(3)))
        #expect(lines.count > 4)
    }

    @Test func favouritingARowStarsItAndForgettingItRemovesTheStar() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let context = context(harness)
        let controller = await harness.run { context.listings(logic) }
        await harness.run { logic.show(.rent) }
        let names = { await harness.run { controller.rootView.render(width: 80) }.filter { $0.hasPrefix("2 ") } }
        #expect(await names().first?.contains("★") == false)
        #expect(await harness.run { controller.handle("fav", ["2"]) }.map(isHandled) == true)
        #expect(await names().first?.contains("★") == true)
        #expect(await harness.run { controller.handle("unfav", ["2"]) }.map(isHandled) == true)
        #expect(await names().first?.contains("★") == false)
    }

    @Test func badInputIsAnErrorLineAndUnknownCommandsAreNotThisScreens() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let context = context(harness)
        let controller = await harness.run { context.listings(logic) }
        #expect(errorText(await harness.run { controller.handle("list", ["boats"]) }) == "usage: list rent|new|resale")
        #expect(
            errorText(await harness.run { controller.handle("filter", ["rooms"]) })
                == "usage: filter KEY VALUE... or filter clear")
        #expect(await harness.run { controller.handle("fly", []) } == nil)
    }

    @Test func theControllerSignalsEveryChangeOfWhatItShows() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let context = context(harness)
        let controller = await harness.run { context.listings(logic) }
        let changes = controller.changes.record()
        await harness.run { logic.show(.resale) }
        #expect(changes.values.count >= 2)
    }

    @Test func aDroppedScreenFreesItsControllerAndViews() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let tracker = ReleaseTracker()
        let context = context(harness)
        await harness.run {
            let controller = context.listings(logic)
            tracker.track(controller, "controller")
            tracker.track(controller.rootView, "table view")
            logic.show(.rent)
        }
        await harness.run { logic.show(.new) }
        tracker.assertAllReleased()
    }

    @Test func goingBackFreesTheDetailScreen() async throws {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let context = context(harness)
        let root = await harness.run { context.listings(logic) }
        await harness.run { logic.show(.rent) }
        let lines = Lines()
        let session = Session(
            root: root, shared: context.sharedCommands,
            terminal: Terminal(isInteractive: false, width: 60)
        ) { lines.append($0) }
        weak var detail: AnyObject?
        #expect(await session.execute("open 2"))
        detail = await harness.run {
            context.mediator.perform(
                target: "listing", action: "detail",
                params: ["kind": "rent", "id": 2]
            ).value(as: AnyObject.self)
        }
        #expect(lines.text.contains("Courtyard 2"))
        #expect(await session.execute("back"))
        await harness.flush()
        #expect(detail == nil)
        #expect(lines.text.contains("> back"))
    }

    /// On a terminal the session draws what changed, as the screen's view model changes:
    /// a command that loads draws the list when it starts (loading) and once when it
    /// lands, the end of its work drawing nothing more; a command that changes nothing
    /// the screen shows draws nothing.
    @Test func onATerminalTheSessionDrawsWhatChangedAndNothingElse() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let context = context(harness)
        let root = await harness.run { context.listings(logic) }
        await harness.run { logic.show(.rent) }
        let lines = Lines()
        let session = Session(
            root: root, shared: context.sharedCommands, terminal: Terminal(isInteractive: true, width: 60)
        ) { lines.append($0) }
        // A first line (`run` shows the first screen; here `help`) starts watching the screen.
        #expect(await session.execute("help"))
        harness.transport.holding = true
        let listed = Task { await session.execute("list new") }
        for await busy in root.isBusy.values where busy { break }
        harness.transport.release()
        #expect(await listed.value)
        func drawn(_ title: String) -> Int { lines.text.components(separatedBy: title + "\n").count - 1 }
        #expect(drawn("New homes") == 2)
        #expect(lines.text.components(separatedBy: "loading…").count - 1 == 1)
        #expect(lines.text.contains("8 shown - type more for the next page\n"))
        #expect(await session.execute("fav 1"))
        #expect(drawn("New homes") == 3)
        #expect(await session.execute("fav 1"))
        #expect(drawn("New homes") == 3, "the second fav changes nothing shown")
        #expect(!root.isBusy.value)
    }

    func context(_ harness: HomesHarness) -> Features {
        Features(harness, now: now)
    }

    private func isHandled(_ outcome: CommandOutcome) -> Bool {
        if case .handled = outcome { return true }
        return false
    }

    private func errorText(_ outcome: CommandOutcome?) -> String? {
        if case .error(let text)? = outcome { return text }
        return nil
    }
}

final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = ""
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func append(_ text: String) {
        lock.lock()
        stored += text
        lock.unlock()
    }
}
