import Foundation
import HomesTesting
import LineEditing
import Listings
import ListingsCategory
import ListingsScreens
import Signals
import Testing

@testable import HomesScreens

/// What the line editor colours is decided by the parser and the screen that run the
/// line, so it agrees with what happens.
@MainActor @Suite struct HighlightTests {
    @Test func aListingNumberIsMarkedExactlyWhenTheScreenRefusesIt() async {
        let harness = HomesHarness()
        let context = ListingListControllerTests().context(harness)
        let logic = ListingLogic(engine: context.engine)
        let list = context.listings(logic)
        await harness.run { logic.show(.rent) }
        let help = list.commands + context.sharedCommands.commands(on: list) + CommandHelp.session
        let completer = Completer(help: help, screen: list)
        let count = logic.state.value.listings.count
        #expect(count > 0)
        for argument in ["0", "1", "\(count)", "\(count + 1)", "99", "x", "1 2"] {
            let marked = completer.highlight("open \(argument)").contains { $0.style == .problem }
            let outcome = list.handle(Command(name: "open", arguments: argument.split(separator: " ").map(String.init)))
            var refused = false
            if case .error = outcome { refused = true }
            #expect(marked == refused, "open \(argument): marked \(marked), refused \(refused)")
        }
    }

    @Test func commandsAreKnownOrUnknownForTheScreenInFront() async {
        let harness = HomesHarness()
        let context = ListingListControllerTests().context(harness)
        let list = context.listings(ListingLogic(engine: context.engine))
        let completer = Completer(
            help: list.commands + context.sharedCommands.commands(on: list) + CommandHelp.session, screen: list)
        #expect(completer.highlight("list new") == [HighlightSpan(0..<4, .command)])
        #expect(completer.highlight("lst new") == [HighlightSpan(0..<3, .unknownCommand)])
        #expect(completer.highlight("HELP; quit") == [HighlightSpan(0..<4, .command), HighlightSpan(6..<10, .command)])
        #expect(completer.highlight("  logout") == [HighlightSpan(2..<8, .command)])
        // An unclosed quote: marked from the quote on, whatever it cut short.
        #expect(
            completer.highlight(#"ask "a quiet"#) == [
                HighlightSpan(0..<3, .unknownCommand), HighlightSpan(4..<12, .problem),
            ])
        #expect(completer.highlight(#""list"#) == [HighlightSpan(0..<5, .problem)])
    }
}
