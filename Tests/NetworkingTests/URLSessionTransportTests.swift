import Dispatch
import Foundation
import Networking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// End-to-end: the real URLSession transport against an HTTP server on 127.0.0.1
/// (`TestHTTPServer`), started by each test.
@MainActor
@Suite(.serialized) struct URLSessionTransportTests {
    /// Runs `body` with an engine whose service points at a fresh loopback server.
    func withServer(
        timeout: Duration = .seconds(5),
        secret: [UInt8]? = nil,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        _ body: (APIEngine, TestHTTPServer) async throws -> Void
    ) async throws {
        let server = TestHTTPServer(handler: handler)
        try server.start()
        defer { server.stop() }
        let engine = APIEngine(
            services: ServiceRegistry([APIService(name: "rentals", baseURL: server.baseURL, signingSecret: secret)]),
            transport: URLSessionTransport(),
            timeout: timeout
        )
        try await body(engine, server)
    }

    /// A delegate that lets the test wait for the n-th callback.
    @MainActor
    final class WaitingDelegate: APIManagerDelegate {
        let recorder = RecordingDelegate()
        private let arrivals = Arrivals()
        func apiManagerDidSucceed(_ manager: any APIManaging) {
            recorder.apiManagerDidSucceed(manager)
            arrivals.signal()
        }
        func apiManagerDidFail(_ manager: any APIManaging) {
            recorder.apiManagerDidFail(manager)
            arrivals.signal()
        }
        func wait(seconds: Double = 10) async -> Bool { await arrivals.wait(seconds: seconds) }
    }

    @Test func aSignedGetReachesTheServerAndTheDataComesBack() async throws {
        let secret = Array("e2e-secret".utf8)
        let verifier = SignatureVerifier(secret: secret)
        try await withServer(
            secret: secret,
            handler: { request in
                let verdict = verifier.verify(request, now: Date())
                guard verdict == .valid else { return .json(["message": .string("signature \(verdict)")], status: 401) }
                return .json(["items": [["title": .string("for \(request.parameters["city"] ?? "?")")]]])
            }
        ) { engine, _ in
            let manager = APIManager(ListAPI(), engine: engine)
            let delegate = WaitingDelegate()
            let source = FixedParameters(["city": "杭州"])
            manager.delegate = delegate
            manager.parameterSource = source
            manager.loadData()
            #expect(await delegate.wait())
            #expect(delegate.recorder.kinds == [.success])
            #expect(manager.fetchData()?["items"]?[0]?["title"] == "for 杭州")
        }
    }

    @Test func aPostFormBodyArrivesIntact() async throws {
        try await withServer(handler: { request in
            .json(["items": [.string(request.formParameters["note"] ?? "missing")]])
        }) { engine, _ in
            var api = ListAPI()
            api.httpMethod = .post
            let manager = APIManager(api, engine: engine)
            let delegate = WaitingDelegate()
            let source = FixedParameters(["note": "a&b=c 中"])
            manager.delegate = delegate
            manager.parameterSource = source
            manager.loadData()
            #expect(await delegate.wait())
            #expect(manager.fetchData() == ["items": ["a&b=c 中"]])
        }
    }

    @Test func serverErrorsAndMalformedJSONGetTheirKinds() async throws {
        let answers: [HTTPResponse] = [
            .json(["message": "database down"], status: 500),
            HTTPResponse(status: 200, body: Data("{\"items\": [1, 2".utf8)),
            HTTPResponse(status: 204),
        ]
        let index = Counter()
        try await withServer(handler: { _ in answers[(index.next() - 1) % answers.count] }) { engine, _ in
            let manager = APIManager(ListAPI(), engine: engine)
            let delegate = WaitingDelegate()
            manager.delegate = delegate
            for _ in answers {
                manager.loadData()
                #expect(await delegate.wait())
            }
            #expect(
                delegate.recorder.results == [
                    APIResult(kind: .serverError(status: 500), message: "database down"),
                    APIResult(kind: .invalidResponse, message: "the response is not valid JSON"),
                    APIResult(kind: .noContent, message: "the server sent no content"),
                ])
        }
    }

    @Test func aSlowServerTimesOut() async throws {
        try await withServer(
            timeout: .milliseconds(300),
            handler: { _ in
                Thread.sleep(forTimeInterval: 1.5)
                return .json(["items": []])
            }
        ) { engine, _ in
            let manager = APIManager(ListAPI(), engine: engine)
            let delegate = WaitingDelegate()
            manager.delegate = delegate
            manager.loadData()
            #expect(await delegate.wait())
            #expect(delegate.recorder.kinds == [.timeout])
        }
    }

    @Test func aSlowResponseCanBeCancelled() async throws {
        // The server answers only once the call is cancelled, so the answer can never win
        // the race on a slow machine (under the thread sanitizer a fixed delay did).
        let answer = DispatchSemaphore(value: 0)
        try await withServer(handler: { _ in
            _ = answer.wait(timeout: .now() + 10)
            return .json(["items": []])
        }) { engine, _ in
            let manager = APIManager(ListAPI(), engine: engine)
            let delegate = WaitingDelegate()
            manager.delegate = delegate
            manager.loadData()
            try await Task.sleep(for: .milliseconds(100))
            manager.cancelAllRequests()
            #expect(await delegate.wait())
            answer.signal()
            // The late answer, if it came through, would land within this time.
            try await Task.sleep(for: .milliseconds(500))
            await flushMainQueue()
            #expect(delegate.recorder.kinds == [.cancelled])
        }
    }

    @Test func nobodyListeningIsNoNetwork() async throws {
        let server = TestHTTPServer { _ in .json([:]) }
        let port = try server.start()
        server.stop()
        let engine = APIEngine(
            services: ServiceRegistry([APIService(name: "rentals", baseURL: URL(string: "http://127.0.0.1:\(port)")!)]),
            transport: URLSessionTransport(), timeout: .seconds(5)
        )
        let manager = APIManager(ListAPI(), engine: engine)
        let delegate = WaitingDelegate()
        manager.delegate = delegate
        manager.loadData()
        #expect(await delegate.wait())
        #expect(delegate.recorder.kinds == [.noNetwork])
    }
}
