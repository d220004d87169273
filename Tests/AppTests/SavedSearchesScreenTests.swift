import FeatureKit
import Foundation
import HomesScreens
import HomesTesting
import ListingsCategory
import ListingsScreens
import Mediator
import Persistence
import SignalsTesting
import Testing
import TextViews

/// Saved searches with the other features, as the app composes them: reached by link
/// and by the list's commands only, since nothing else knows them.
@MainActor @Suite struct SavedSearchesScreenTests {
    let now = Date(timeIntervalSince1970: 1_763_700_000)

    /// The table rows `screen` shows: lines that start with a number and two spaces.
    func rows(of screen: any Screen) -> [String] {
        screen.rootView.render(width: 72).filter { $0.contains(#/^\d+  /#) }
    }

    func screen(_ outcome: CommandOutcome) -> (any Screen)? {
        if case .push(let screen) = outcome { return screen }
        return nil
    }

    /// The saved-searches screen observes its table: a search written by anyone while it
    /// is shown redraws it, once per change; `run N` opens that list again through the
    /// mediator, and `delete N` forgets it.
    @Test func theSavedListRedrawsWhenTheTableChangesAndRunsASearchAgain() async throws {
        let harness = HomesHarness()
        let context = Features(harness, now: now)
        let root = await harness.run { context.composition.home(context.mediator) }
        let lines = Lines()
        let session = Session(
            root: root, shared: context.sharedCommands, terminal: Terminal(isInteractive: false, width: 72)
        ) { lines.append($0) }
        #expect(await session.execute("filter rooms 2"))
        #expect(await session.execute("save --name two"))
        #expect(lines.text.hasSuffix("search saved as \"two\"; saved lists the saved searches\n"))
        let saved = try #require(
            await harness.run { screen(context.mediator.screen(at: "homes://saved-searches/list")) })
        #expect(saved.name == "searches")
        #expect(saved.rootView.render(width: 72).contains { $0.hasPrefix("1  two   Rentals  rooms=2") })
        let changes = saved.changes.record()
        try context.database.execute(
            "INSERT INTO saved_search (kind, filters, savedAt) VALUES ('resale', '{}', \(Date().timeIntervalSince1970 + 60))"
        )
        await harness.flush()
        #expect(changes.values.count == 1)
        let shown = rows(of: saved)
        #expect(shown.count == 2 && shown.first?.contains("Resale") == true)
        let list = try #require(await harness.run { saved.handle("run", ["2"]) }.flatMap(screen))
        #expect(list.link == "homes://listing/list?kind=rent&rooms=2")
        #expect(context.mediator.listingQuery(shownOn: list) == ListingQuery(kind: .rent, filters: ["rooms": "2"]))
        _ = await harness.run { saved.handle("delete", ["1"]) }
        #expect(changes.values.count == 2)
        #expect(rows(of: saved).count == 1)
        // A number that is not one of the list's is refused, saying which are.
        guard case .error(let problem)? = saved.handle("delete", ["2"]) else {
            Issue.record("delete 2 of 1 was not refused")
            return
        }
        #expect(problem == "usage: delete N, with N from 1 to 1")
    }

    /// A search stored by another version, of a kind this one does not know or with
    /// filters it cannot read, is listed and said, never run as something else.
    @Test func aSearchThisVersionCannotRunIsSaidNotRun() async throws {
        let harness = HomesHarness()
        let context = Features(harness, now: now)
        try context.database.execute(
            "INSERT INTO saved_search (kind, filters, savedAt) VALUES ('villa', '{}', 2), ('new', 'rooms=2', 1)")
        let saved = try #require(
            await harness.run { screen(context.mediator.screen(at: "homes://saved-searches/list")) })
        guard case .error(let villa)? = saved.handle("run", ["1"]),
            case .error(let filters)? = saved.handle("run", ["2"])
        else {
            Issue.record("a search this version cannot run was run")
            return
        }
        #expect(villa == "saved search 1 is of a kind this version cannot show (villa)")
        #expect(filters == "saved search 2's filters cannot be read (rooms=2)")
    }

    /// Left out of the composition, saved searches leave nothing behind: the list has no
    /// `save`, and their link says they are not here.
    @Test func leftOutTheListHasNoSaveAndTheLinkSaysSo() async throws {
        let harness = HomesHarness()
        let context = Features(harness, now: now, features: [ListingsFeature()])
        let root = await harness.run { context.composition.home(context.mediator) }
        #expect(!context.sharedCommands.commands(on: root).flatMap(\.names).contains("save"))
        let lines = Lines()
        let session = Session(
            root: root, shared: context.sharedCommands, terminal: Terminal(isInteractive: false, width: 72),
            writeError: { lines.append($0) }
        ) { _ in }
        #expect(await session.execute("save"))
        #expect(lines.text == "error: unknown command save; type help for the commands of this screen\n")
        guard case .error(let problem) = context.mediator.screen(at: "homes://saved-searches/list") else {
            Issue.record("a link to a feature left out opened something")
            return
        }
        #expect(problem == "There is no saved-searches here.")
    }
}
