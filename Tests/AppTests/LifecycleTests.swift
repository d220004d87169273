import Foundation
import HomesScreens
import HomesTesting
import Listings
import ListingsCategory
import Synchronization
import Testing

@MainActor @Suite struct LifecycleTests {
    final class Recorder: ScreenLifecycleObserver {
        var events: [String] = []
        func screenDidAppear(_ name: String) { events.append("+\(name)") }
        func screenDidDisappear(_ name: String) { events.append("-\(name)") }
    }

    @Test func everyScreenShownIsSeenWithoutABaseClass() async {
        let harness = HomesHarness()
        let controllerTests = ListingListControllerTests()
        let context = controllerTests.context(harness)
        let logic = ListingLogic(engine: harness.engine)
        let root = await harness.run { context.listings(logic) }
        await harness.run { logic.show(.rent) }
        let recorder = Recorder()
        let session = Session(
            root: root, shared: context.sharedCommands,
            terminal: Terminal(isInteractive: false, width: 60), lifecycle: [recorder]
        ) { _ in }
        let lines = ScriptedLines(["open 1", "back", "favs", "back", "quit"])
        await session.run(from: .piped { lines.next() })
        #expect(
            recorder.events == [
                "+listings", "-listings", "+detail", "-detail", "+listings", "-listings",
                "+favourites", "-favourites", "+listings",
            ])
    }
}

/// Lines a scripted session reads, one per call, from the session's reading thread.
final class ScriptedLines: Sendable {
    private let lines: Mutex<[String]>

    init(_ lines: [String]) {
        self.lines = Mutex(lines)
    }

    func next() -> String? {
        lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
