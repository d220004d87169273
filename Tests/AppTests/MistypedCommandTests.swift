import HomesScreens
import HomesTesting
import Listings
import ListingsCategory
import Testing

/// What the session says of a command the screen shown does not answer, and how a line's
/// commands are read: each as the screen shown when it runs declares it.
@MainActor @Suite struct MistypedCommandTests {
    /// A session on the rentals, its error lines in `errors`.
    func session(_ harness: HomesHarness, errors: Lines) async -> Session {
        let context = ListingListControllerTests().context(harness)
        let logic = ListingLogic(engine: harness.engine)
        let root = await harness.run { context.listings(logic) }
        await harness.run { logic.show(.rent) }
        return Session(
            root: root, shared: context.sharedCommands, terminal: Terminal(isInteractive: false, width: 60),
            writeError: { errors.append($0) }
        ) { _ in }
    }

    @Test func aTypoIsToldTheNearestCommandOfTheScreen() async {
        let errors = Lines()
        let session = await session(HomesHarness(), errors: errors)
        #expect(await session.execute("lsit new"))
        #expect(await session.execute("refesh"))
        #expect(await session.execute("frobnicate"))
        #expect(
            errors.text == """
                error: unknown command lsit; did you mean list?
                error: unknown command refesh; did you mean refresh?
                error: unknown command frobnicate; type help for the commands of this screen

                """)
    }

    /// `more` on the map is the list's: the user is told where it works and how to get
    /// there, however many screens back that is.
    @Test func aCommandOfAScreenBehindSaysWhereItWorks() async {
        let errors = Lines()
        let session = await session(HomesHarness(), errors: errors)
        #expect(await session.execute("map"))
        #expect(await session.execute("more"))
        #expect(await session.execute("open 1"))
        #expect(await session.execute("filter rooms 2"))
        // Back on the map, a typo of its own command is told that command.
        #expect(await session.execute("back; opne 1"))
        #expect(
            errors.text == """
                error: more works on the listings screen; type back first
                error: filter works on the listings screen; type back 2 times first
                error: unknown command opne; did you mean open?

                """)
    }

    /// `ask` takes the rest of its line as the detail screen declares it, even when the
    /// line opened that screen: `; frobnicate` is part of the question.
    @Test func eachCommandOfALineIsReadAsItsScreenDeclaresIt() async {
        let errors = Lines()
        let session = await session(HomesHarness(), errors: errors)
        #expect(await session.execute("open 1; ask"))
        #expect(await session.execute("back; open 2; ask is it quiet; frobnicate --photo"))
        #expect(
            errors.text == """
                error: write something to ask
                error: usage: ask TEXT [--photo FILE]: --photo needs a file

                """)
    }
}
