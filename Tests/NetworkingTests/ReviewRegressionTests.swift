import Dispatch
import Foundation
import HTTPServer
import Networking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Regressions for defects found in review; each failed (or crashed) before its fix.
@MainActor
@Suite struct NetworkingReviewRegressionTests {
    @Test func anAbsurdTimestampIsStaleNotACrash() {
        let verifier = SignatureVerifier(secret: Array("k".utf8))
        for timestamp in ["-9223372036854775808", "9223372036854775807"] {
            let headers = [
                SignatureHeader.timestamp: timestamp, SignatureHeader.nonce: "n", SignatureHeader.signature: "00",
            ]
            let request = HTTPRequest(method: .get, url: URL(string: "http://x/a")!, headers: headers)
            #expect(verifier.verify(request, now: Date()) == .stale)
        }
    }

    @Test func aCallCancelledWhileBeingSentCancelsItsTransportTask() async {
        // @unchecked Sendable: `onSend` is set and called only on the main actor (managers send from there).
        final class CancellingTransport: HTTPTransport, @unchecked Sendable {
            let inner = FakeTransport()
            var onSend: @MainActor () -> Void = {}
            func send(
                _ request: HTTPRequest, timeout: Duration,
                completion: @escaping @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
            ) -> any TransportTask {
                MainActor.assumeIsolated { onSend() }
                return inner.send(request, timeout: timeout, completion: completion)
            }
        }
        let transport = CancellingTransport()
        let engine = APIEngine(
            services: ServiceRegistry([APIService(name: "rentals", baseURL: URL(string: "http://x")!)]),
            transport: transport)
        let manager = APIManager(ListAPI(), engine: engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        transport.onSend = { manager.cancelAllRequests() }
        manager.loadData()
        await flushMainQueue()
        #expect(delegate.kinds == [.cancelled])
        #expect(transport.inner.sent.first?.task.isCancelled == true)
    }

    @Test func aCallStaysLoadingUntilItsOutcomeIsApplied() async {
        let harness = Harness()
        var api = ListAPI()
        api.pageSize = 2
        let manager = APIManager(api, engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        // The main actor is busy: this test holds it and does not yield until the flush, so
        // page 1's response arrives (evaluated and queued) but cannot be applied yet.
        #expect(manager.loadNextPage())
        harness.transport.respond(json: ["items": [1, 2]])
        #expect(delegate.kinds.isEmpty)
        #expect(manager.isLoading)
        #expect(!manager.loadNextPage())
        await harness.flush()
        #expect(!manager.isLoading)
        #expect(manager.loadNextPage())
        #expect(harness.transport.requests.map { $0.queryParameters["page"] } == ["1", "2"])
    }

    @Test func anOlderResponseNeverOverwritesANewerOne() async {
        let harness = Harness()
        var api = ListAPI()
        api.requestStrategy = .cancelInFlight
        let manager = APIManager(api, engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.loadData()
        manager.loadData()
        harness.transport.respond(json: ["items": ["new"]], to: 1)
        harness.transport.respond(json: ["items": ["old"]], to: 0)
        await harness.flush()
        #expect(manager.fetchData() == ["items": ["new"]])
        #expect(delegate.kinds == [.cancelled, .success])
    }

    @Test func aResponseWaitingForTheBusyMainActorNeverOverwritesANewerCall() async {
        let harness = Harness()
        var api = ListAPI()
        api.requestStrategy = .cancelInFlight
        let manager = APIManager(api, engine: harness.engine)
        let delegate = RecordingDelegate()
        let source = FixedParameters(["city": "old"])
        manager.delegate = delegate
        manager.parameterSource = source
        // The main actor stays busy (this test does not yield) until the flush: the old
        // call's response arrives and waits for it, then a newer call replaces the old one.
        manager.loadData()
        harness.transport.respond(json: ["items": ["old"]], to: 0)
        source.parameters = ["city": "new"]
        manager.loadData()
        harness.transport.respond(json: ["items": ["new"]], to: 1)
        await harness.flush()
        #expect(delegate.kinds == [.cancelled, .success])
        #expect(manager.fetchData() == ["items": ["new"]])
        #expect(manager.lastParameters == ["city": "new"])
    }

    @Test func aGoneDelegatesResponseIsDroppedWithoutInterceptors() async {
        final class Counting: APIInterceptor, Sendable {
            let count = Counter()
            func willSucceed(_ manager: any APIManaging) { _ = count.next() }
        }
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let interceptor = Counting()
        manager.interceptors = [interceptor]
        do {
            let delegate = RecordingDelegate()
            manager.delegate = delegate
            manager.loadData()
        }
        harness.transport.respond(json: ["items": []])
        await harness.flush()
        #expect(manager.rawData == nil)
        #expect(manager.lastResult == nil)
        #expect(interceptor.count.current == 0)
        #expect(!manager.isLoading)
    }

    @Test func uploadPendingDuringAnUploadStillSendsTheRest() {
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

    @Test func stringsMustBeValidUTF8AndNestingIsBounded() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Data([0x22, 0xff, 0xfe, 0x22])) }
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try JSONValue(parsing: Data(fine.utf8)) }
    }
}
