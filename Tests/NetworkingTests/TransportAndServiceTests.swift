import Dispatch
import Foundation
import Networking
import Testing

@MainActor
@Suite struct InProcessTransportTests {
    @Test func handsTheRequestToTheHandlerAfterTheLatency() throws {
        let seen = Counter()
        let transport = InProcessTransport(latency: .milliseconds(30)) { request in
            _ = seen.next()
            return .json(["path": .string(request.url.path)])
        }
        let done = DispatchSemaphore(value: 0)
        let started = DispatchTime.now()
        let box = ResultBox()
        _ = transport.send(HTTPRequest(method: .get, url: URL(string: "http://x/a/b")!), timeout: .seconds(1)) {
            outcome in
            box.set(outcome)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 2) == .success)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6
        #expect(elapsed >= 25)
        let response = try #require(try box.value?.get())
        #expect(try JSONValue(parsing: response.body) == ["path": "/a/b"])
        #expect(seen.current == 1)
    }

    @Test func aCancelledRequestNeverCompletes() async throws {
        let transport = InProcessTransport(latency: .milliseconds(50)) { _ in .json([:]) }
        let completed = Counter()
        let task = transport.send(HTTPRequest(method: .get, url: URL(string: "http://x")!), timeout: .seconds(1)) { _ in
            _ = completed.next()
        }
        task.cancel()
        try await Task.sleep(for: .milliseconds(150))
        #expect(completed.current == 0)
    }

    @Test func latencyBeyondTheTimeoutIsATimeoutThroughTheEngine() async {
        let transport = InProcessTransport(latency: .seconds(3)) { _ in .json(["items": []]) }
        let engine = APIEngine(
            services: ServiceRegistry([APIService(name: "rentals", baseURL: URL(string: "http://x")!)]),
            transport: transport, timeout: .milliseconds(50))
        let manager = APIManager(ListAPI(), engine: engine)
        let delegate = URLSessionTransportTests.WaitingDelegate()
        manager.delegate = delegate
        manager.loadData()
        #expect(await delegate.wait(seconds: 10))
        #expect(delegate.recorder.kinds == [.timeout])
    }
}

/// Carries a transport outcome across threads.
// @unchecked Sendable: `stored` is only read and written under `lock`.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<HTTPResponse, TransportFailure>?
    var value: Result<HTTPResponse, TransportFailure>? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func set(_ value: Result<HTTPResponse, TransportFailure>) {
        lock.lock()
        stored = value
        lock.unlock()
    }
}

@MainActor
@Suite struct ServiceTests {
    @Test func servicesAreFoundByNameAndCanBeReplaced() {
        let registry = ServiceRegistry([APIService(name: "rentals", baseURL: URL(string: "https://a.example")!)])
        #expect(registry.service(named: "rentals")?.baseURL.host == "a.example")
        #expect(registry.service(named: "resale") == nil)
        registry.register(
            APIService(name: "rentals", baseURL: URL(string: "https://b.example")!, environment: .staging))
        #expect(registry.service(named: "rentals")?.environment == .staging)
        #expect(registry.service(named: "rentals")?.baseURL.host == "b.example")
    }

    @Test func methodNamesBecomePaths() {
        let service = APIService(name: "x", baseURL: URL(string: "https://api.example/v2")!)
        #expect(service.url(for: "homes/new/list").absoluteString == "https://api.example/v2/homes/new/list")
    }

    @Test func keyConventionsDifferPerService() async {
        let harness = Harness()
        harness.engine.services.register(
            APIService(
                name: "resale", baseURL: URL(string: "https://r.example")!,
                pageKey: "esf_page", pageSizeKey: "esf_size", messageKey: "esf_msg"))
        struct ResaleAPI: APIDefinition {
            let serviceName = "resale"
            let methodName = "list"
            let pageSize: Int? = 5
        }
        let manager = APIManager(ResaleAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.loadData()
        #expect(harness.transport.requests.last?.queryParameters == ["esf_page": "1", "esf_size": "5"])
        harness.transport.respond(json: ["esf_msg": "maintenance"], status: 503)
        await harness.flush()
        #expect(delegate.results == [APIResult(kind: .serverError(status: 503), message: "maintenance")])
    }
}
