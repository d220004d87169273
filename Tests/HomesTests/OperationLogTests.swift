import Foundation
import HomesScreens
import Listings
import Networking
import OperationLogs
import Persistence
import Testing

@MainActor @Suite struct HomesOperationLogTests {
    @Test func entriesSurviveInSQLiteUntilUploaded() async throws {
        let path = NSTemporaryDirectory() + "oplog-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        do {
            let database = DatabaseRegistry().database(at: path)
            try Migrator(OperationLogDataCenter.migrations).migrate(database)
            let store = OperationLogDataCenter(database: database)
            _ = store.append(
                event: "page_view", attributes: ["screen": "listings"], timestamp: Date(timeIntervalSince1970: 5))
            _ = store.append(
                event: "page_view", attributes: ["screen": "detail"], timestamp: Date(timeIntervalSince1970: 6))
        }
        let store = OperationLogDataCenter(database: DatabaseRegistry().database(at: path))
        #expect(store.count == 2)
        let oldest = store.oldest(1)
        #expect(oldest.map(\.attributes) == [["screen": "listings"]])
        store.remove(Set(oldest.map(\.sequence)))
        #expect(store.oldest(10).map(\.event) == ["page_view"])
        #expect(store.count == 1)
    }

    @Test func batchesGoUpThroughTheAPIAndLeftoversAtTheNextStart() async throws {
        let harness = HomesHarness()
        harness.engine.services.register(
            APIService(
                name: "account", baseURL: URL(string: "http://embedded.test/api")!,
                signingSecret: HomesHarness.secret))
        let database = DatabaseRegistry().database(at: NSTemporaryDirectory() + "oplog-\(UUID().uuidString).sqlite")
        try Migrator(OperationLogDataCenter.migrations).migrate(database)
        let store = OperationLogDataCenter(database: database)
        let logger = OperationLogger(store: store, uploader: OperationLogAPIUploader(engine: harness.engine))
        await harness.run { for index in 0..<35 { logger.record("page_view", attributes: ["screen": "s\(index)"]) } }
        #expect(harness.transport.server.eventsUploaded == 30)
        #expect(store.count == 5)
        await harness.run { logger.uploadPending() }
        #expect(harness.transport.server.eventsUploaded == 35)
        #expect(store.count == 0)
    }
}

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
        await session.run(from: PipedLines { lines.next() })
        #expect(
            recorder.events == [
                "+listings", "-listings", "+detail", "-detail", "+listings", "-listings",
                "+favourites", "-favourites", "+listings",
            ])
    }
}
