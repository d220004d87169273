import Dispatch
import Foundation
import Networking
import Testing

@MainActor
@Suite struct OperationLogTests {
    @MainActor
    final class ScriptedUploader: OperationLogUploader {
        private var batches: [[OperationLogEntry]] = []
        var succeeds = true
        var holds = false
        private var held: [(Bool) -> Void] = []

        var uploaded: [[Int64]] { batches.map { $0.map(\.sequence) } }

        func upload(_ batch: [OperationLogEntry], completion: @escaping (Bool) -> Void) {
            batches.append(batch)
            if holds {
                held.append(completion)
                return
            }
            completion(succeeds)
        }

        func release(_ result: Bool) {
            let waiting = held
            held = []
            waiting.forEach { $0(result) }
        }
    }

    @Test func uploadsInBatchesOfThirty() {
        let store = InMemoryOperationLogStore()
        let uploader = ScriptedUploader()
        let logger = OperationLogger(store: store, uploader: uploader)
        for index in 1...65 { logger.record("page_view", attributes: ["page": "\(index)"]) }
        #expect(uploader.uploaded.map(\.count) == [30, 30])
        #expect(uploader.uploaded[1].first == 31)
        #expect(store.count == 5)
    }

    @Test func leftoversGoAtTheNextStart() {
        let store = InMemoryOperationLogStore()
        let uploader = ScriptedUploader()
        do {
            let logger = OperationLogger(store: store, uploader: uploader)
            for _ in 1...7 { logger.record("tap") }
        }
        #expect(uploader.uploaded.isEmpty)
        let nextLaunch = OperationLogger(store: store, uploader: uploader)
        nextLaunch.uploadPending()
        #expect(uploader.uploaded == [Array(1...7)])
        #expect(store.count == 0)
    }

    @Test func aFailedUploadLosesNothing() {
        let store = InMemoryOperationLogStore()
        let uploader = ScriptedUploader()
        uploader.succeeds = false
        let logger = OperationLogger(store: store, uploader: uploader)
        for _ in 1...30 { logger.record("tap") }
        #expect(uploader.uploaded.count == 1)
        #expect(store.count == 30)
        uploader.succeeds = true
        logger.uploadPending()
        #expect(store.count == 0)
        #expect(uploader.uploaded.last == Array(1...30))
    }

    @Test func oneUploadAtATimeAndNothingRecordedMeanwhileIsLost() {
        let store = InMemoryOperationLogStore()
        let uploader = ScriptedUploader()
        uploader.holds = true
        let logger = OperationLogger(store: store, uploader: uploader)
        for _ in 1...45 { logger.record("tap") }
        #expect(uploader.uploaded.count == 1)
        uploader.release(true)
        #expect(store.count == 15)
        logger.uploadPending()
        uploader.release(true)
        #expect(store.count == 0)
        #expect(uploader.uploaded.map(\.count) == [30, 15])
    }

    @Test(.tags(.regression)) func uploadPendingDuringAnUploadStillSendsTheRest() {
        @MainActor
        final class HeldUploader: OperationLogUploader {
            private var held: [(Bool) -> Void] = []
            private(set) var sizes: [Int] = []
            func upload(_ batch: [OperationLogEntry], completion: @escaping (Bool) -> Void) {
                sizes.append(batch.count)
                held.append(completion)
            }
            func release() {
                let waiting = held
                held = []
                waiting.forEach { $0(true) }
            }
        }
        let store = InMemoryOperationLogStore()
        let uploader = HeldUploader()
        let logger = OperationLogger(store: store, uploader: uploader)
        for _ in 1...35 { logger.record("tap") }
        logger.uploadPending()
        uploader.release()
        uploader.release()
        #expect(store.count == 0)
        #expect(uploader.sizes == [30, 5])
    }

    /// Regression (review): when the store could not forget the entries just uploaded,
    /// the logger sent the same batch again and again; it stops after the one upload.
    @Test(.tags(.regression)) func anUploadWhoseEntriesCannotBeForgottenStopsInsteadOfLooping() async {
        final class StuckStore: OperationLogStore, @unchecked Sendable {
            let inner = InMemoryOperationLogStore()
            func append(event: String, attributes: [String: String], timestamp: Date) -> OperationLogEntry {
                inner.append(event: event, attributes: attributes, timestamp: timestamp)
            }
            func oldest(_ limit: Int) -> [OperationLogEntry] { inner.oldest(limit) }
            func remove(_ sequences: Set<Int64>) -> Bool { false }
            var count: Int { inner.count }
        }
        final class CountingUploader: OperationLogUploader {
            var uploads = 0
            func upload(_ batch: [OperationLogEntry], completion: @escaping (Bool) -> Void) {
                uploads += 1
                completion(true)
            }
        }
        let uploader = CountingUploader()
        let logger = OperationLogger(store: StuckStore(), uploader: uploader)
        for _ in 0..<40 { logger.record("page_view") }
        logger.uploadPending()
        #expect(uploader.uploads == 1)
    }
}

@Suite struct ReachabilityTests {
    @Test func observersHearChangesOnlyAndStopWhenCancelled() {
        let reachability = NetworkReachability()
        let heard = Counter()
        let offline = Counter()
        let observation = reachability.observe { reachable in
            _ = heard.next()
            if !reachable { _ = offline.next() }
        }
        reachability.update(isReachable: true)
        reachability.update(isReachable: false)
        reachability.update(isReachable: false)
        #expect(heard.current == 1)
        #expect(offline.current == 1)
        observation.cancel()
        reachability.update(isReachable: true)
        #expect(heard.current == 1)
        #expect(reachability.isReachable)
    }
}
