import Foundation
import HomesAPI
import HomesTesting
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
        let harness = HomesHarness(services: [HomesHarness.account])
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
