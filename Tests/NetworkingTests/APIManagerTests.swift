import Dispatch
import Foundation
import Networking
import Testing

@MainActor
@Suite struct APIManagerTests {
    @Test func successKeepsRawDataAndReachesTheDelegateOnce() async {
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        let source = FixedParameters(["city": "sh"])
        manager.delegate = delegate
        manager.parameterSource = source
        #expect(manager.lastResult == nil)
        #expect(manager.loadData())
        #expect(manager.isLoading)
        harness.transport.respond(json: ["items": [["id": 1]]])
        await harness.flush()
        #expect(delegate.kinds == [.success])
        #expect(manager.fetchData() == ["items": [["id": 1]]])
        #expect(!manager.isLoading)
        #expect(manager.lastParameters == ["city": "sh"])
    }

    @Test func requestCarriesCommonParametersQueryAndSignature() async throws {
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let source = FixedParameters(["city": "上海"])
        manager.parameterSource = source
        manager.loadData()
        let request = try #require(harness.transport.requests.first)
        #expect(request.url.path == "/v1/rentals/list")
        #expect(request.queryParameters == ["app": "homes", "city": "上海"])
        let verifier = SignatureVerifier(secret: Array("s3cret".utf8))
        #expect(verifier.verify(request, now: harness.clock.now) == .valid)
        #expect(request.headers[SignatureHeader.nonce] == "nonce-1")
    }

    @Test func postSendsAFormBody() async throws {
        let harness = Harness()
        var api = ListAPI()
        api.httpMethod = .post
        let manager = APIManager(api, engine: harness.engine)
        let source = FixedParameters(["city": "a b"])
        manager.parameterSource = source
        manager.loadData()
        let request = try #require(harness.transport.requests.first)
        #expect(request.url.query == nil)
        #expect(request.formParameters == ["app": "homes", "city": "a b"])
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func invalidParametersFailWithoutSending() async {
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        let source = FixedParameters(["city": ""])
        manager.delegate = delegate
        manager.parameterSource = source
        manager.loadData()
        await harness.flush()
        #expect(harness.transport.sent.isEmpty)
        #expect(delegate.results == [APIResult(kind: .invalidParameters, message: "city must not be empty")])
    }

    @Test func reformersShapeRawDataAndCanTellManagersApart() async {
        struct TitleReformer: APIReformer {
            func reform(_ data: JSONValue, from manager: any APIManaging) -> [String] {
                let key = manager.definition.methodName == "rentals/list" ? "title" : "name"
                return (data["items"]?.arrayValue ?? []).compactMap { $0[key]?.stringValue }
            }
        }
        struct CountReformer: APIReformer {
            func reform(_ data: JSONValue, from manager: any APIManaging) -> Int {
                data["items"]?.arrayValue?.count ?? 0
            }
        }
        let harness = Harness()
        let delegate = RecordingDelegate()
        let rentals = APIManager(ListAPI(), engine: harness.engine)
        var other = ListAPI()
        other.methodName = "resale/list"
        let resale = APIManager(other, engine: harness.engine)
        rentals.delegate = delegate
        resale.delegate = delegate
        #expect(rentals.fetchData(with: TitleReformer()) == [])
        rentals.loadData()
        harness.transport.respond(json: ["items": [["title": "Loft"], ["title": "Flat"]]])
        resale.loadData()
        harness.transport.respond(json: ["items": [["name": "Villa"]]])
        await harness.flush()
        #expect(rentals.fetchData(with: TitleReformer()) == ["Loft", "Flat"])
        #expect(resale.fetchData(with: TitleReformer()) == ["Villa"])
        #expect(rentals.fetchData(with: CountReformer()) == 2)
    }

    @Test func errorKindsForWhatTheServerSends() async {
        let cases: [(Result<HTTPResponse, TransportFailure>, APIResult)] = [
            (
                .success(.json(["message": "boom"], status: 500)),
                APIResult(kind: .serverError(status: 500), message: "boom")
            ),
            (
                .success(HTTPResponse(status: 503)),
                APIResult(kind: .serverError(status: 503), message: "the server answered 503")
            ),
            (
                .success(.json(["code": 4010, "message": "bad signature"], status: 401)),
                APIResult(kind: .signatureRejected, message: "bad signature")
            ),
            (.success(HTTPResponse(status: 204)), APIResult(kind: .noContent, message: "the server sent no content")),
            (
                .success(HTTPResponse(status: 200, body: Data("{not json".utf8))),
                APIResult(kind: .invalidResponse, message: "the response is not valid JSON")
            ),
            (.success(.json(["items": "wrong type"])), APIResult(kind: .invalidResponse, message: "items missing")),
            (.success(.json(["nothing": true])), APIResult(kind: .invalidResponse, message: "items missing")),
            (.failure(.timeout), APIResult(kind: .timeout, message: "no response in time")),
            (.failure(.noNetwork), APIResult(kind: .noNetwork, message: "cannot reach https://api.example/v1")),
            (.failure(.failed("reset")), APIResult(kind: .invalidResponse, message: "reset")),
        ]
        for (outcome, expected) in cases {
            let harness = Harness()
            let manager = APIManager(ListAPI(), engine: harness.engine)
            let delegate = RecordingDelegate()
            manager.delegate = delegate
            manager.loadData()
            harness.transport.respond(outcome)
            await harness.flush()
            #expect(delegate.results == [expected])
            #expect(manager.rawData == nil)
        }
    }

    @Test func hugeBodiesAreHandledWithoutCrashing() async {
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.loadData()
        let items = JSONValue.array(
            (0..<10_000).map { index -> JSONValue in
                ["id": .number(Double(index)), "title": .string("home \(index)")]
            })
        harness.transport.respond(json: ["items": items])
        await harness.flush()
        #expect(delegate.kinds == [.success])
        #expect(manager.rawData?["items"]?.arrayValue?.count == 10_000)
    }

    @Test func noNetworkFailsFastWithoutSending() async {
        let harness = Harness()
        harness.reachability.update(isReachable: false)
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        #expect(manager.loadData())
        await harness.flush()
        #expect(harness.transport.sent.isEmpty)
        #expect(delegate.kinds == [.noNetwork])
        harness.reachability.update(isReachable: true)
        manager.loadData()
        #expect(harness.transport.sent.count == 1)
    }

    @Test func timeoutFailsTheCallAndCancelsTheTransportTask() async throws {
        let harness = Harness(timeout: .milliseconds(50))
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.loadData()
        try await Task.sleep(for: .milliseconds(300))
        await harness.flush()
        #expect(delegate.kinds == [.timeout])
        #expect(harness.transport.sent.first?.task.isCancelled == true)
        harness.transport.respond(json: ["items": []])
        await harness.flush()
        #expect(delegate.kinds == [.timeout])
    }

    @Test func ignoreNewWhileLoadingRefusesASecondCall() async {
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        #expect(manager.loadData())
        #expect(!manager.loadData())
        #expect(harness.transport.sent.count == 1)
        harness.transport.respond(json: ["items": []])
        await harness.flush()
        #expect(delegate.kinds == [.success])
        #expect(manager.loadData())
    }

    @Test func cancelInFlightReplacesTheOldCall() async {
        let harness = Harness()
        var api = ListAPI()
        api.requestStrategy = .cancelInFlight
        let manager = APIManager(api, engine: harness.engine)
        let delegate = RecordingDelegate()
        let source = FixedParameters(["city": "a"])
        manager.delegate = delegate
        manager.parameterSource = source
        manager.loadData()
        source.parameters = ["city": "b"]
        manager.loadData()
        #expect(harness.transport.sent.count == 2)
        #expect(harness.transport.sent[0].task.isCancelled)
        harness.transport.respond(json: ["items": ["old"]], to: 0)
        harness.transport.respond(json: ["items": ["new"]], to: 1)
        await harness.flush()
        #expect(delegate.kinds == [.cancelled, .success])
        #expect(manager.fetchData() == ["items": ["new"]])
        #expect(manager.lastParameters == ["city": "b"])
    }

    @Test func cancelAllRequestsReportsCancelledOnceAndDropsLateResponses() async {
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.loadData()
        manager.cancelAllRequests()
        #expect(!manager.isLoading)
        #expect(harness.transport.sent[0].task.isCancelled)
        harness.transport.respond(json: ["items": []])
        await harness.flush()
        #expect(delegate.kinds == [.cancelled])
    }

    @Test func aGoneDelegateGetsNothingAndAFreedManagerCancelsItsCalls() async {
        let harness = Harness()
        var manager: APIManager<ListAPI>? = APIManager(ListAPI(), engine: harness.engine)
        do {
            let delegate = RecordingDelegate()
            manager?.delegate = delegate
        }
        #expect(manager?.delegate == nil)
        manager?.loadData()
        harness.transport.respond(json: ["items": []])
        await harness.flush()
        manager?.loadData()
        weak let weakManager = manager
        manager = nil
        #expect(weakManager == nil)
        #expect(harness.transport.sent[1].task.isCancelled)
        harness.transport.respond(json: ["items": []], to: 1)
        await harness.flush()
    }

    @Test func unknownServiceIsReportedNotCrashed() async {
        let harness = Harness()
        var api = ListAPI()
        api.serviceName = "nowhere"
        let manager = APIManager(api, engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.loadData()
        await harness.flush()
        #expect(delegate.results == [APIResult(kind: .invalidParameters, message: "no service named nowhere")])
    }

    @Test(.tags(.regression)) func aCallCancelledWhileBeingSentCancelsItsTransportTask() async {
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

    @Test(.tags(.regression)) func aCallStaysLoadingUntilItsOutcomeIsApplied() async {
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

    @Test(.tags(.regression)) func anOlderResponseNeverOverwritesANewerOne() async {
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

    @Test(.tags(.regression)) func aResponseWaitingForTheBusyMainActorNeverOverwritesANewerCall() async {
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

    @Test(.tags(.regression)) func aGoneDelegatesResponseIsDroppedWithoutInterceptors() async {
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
}
