import Foundation
import Networking
import Testing

/// Request URLs are built as text when that is safe; they must be the URLs Foundation's
/// path appending and `URLComponents` make, and signed requests must still verify.
@MainActor
@Suite struct RequestBuildingTests {
    static let bases = [
        "https://api.example/v1", "https://api.example/v1/", "https://api.example", "https://api.example/",
        "http://in-process:8080/a/b", "https://api.example/v%C3%A9/", "https://api.example/v1?x=1",
        "https://user@api.example/v1",
    ]
    static let methods = [
        "rentals/list", "/rentals/list/", "a//b", "list", "a.b/c_d~e-f", "homes/新/list", "a b/c",
        "../x", "x/./y", ".../x", "",
    ]

    func reference(_ base: URL, _ method: String, query: String) -> URL {
        let url = method.split(separator: "/").reduce(base) { $0.appendingPathComponent(String($1)) }
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        components.percentEncodedQuery = query
        return components.url ?? url
    }

    @Test func methodURLsAreFoundationsURLs() throws {
        for base in Self.bases {
            let baseURL = try #require(URL(string: base))
            let service = APIService(name: "s", baseURL: baseURL)
            for method in Self.methods {
                #expect(
                    service.url(for: method).absoluteString == reference(baseURL, method, query: "").absoluteString,
                    "base \(base), method \(method)")
            }
        }
    }

    @Test func requestURLsCarryTheCanonicalQueryAndSignedOnesVerify() throws {
        let secret = Array("k".utf8)
        let parameters = ["city": "上海", "q": "a b&c=d", "page": "2"]
        let query = CanonicalParameters.encode(parameters)
        for base in Self.bases {
            for method in ["rentals/list", "a b/c", "list"] {
                let transport = FakeTransport()
                let baseURL = try #require(URL(string: base))
                let engine = APIEngine(
                    services: ServiceRegistry([
                        APIService(
                            name: "rentals", baseURL: baseURL,
                            signingSecret: secret)
                    ]),
                    transport: transport)
                let manager = APIManager(ListAPI(methodName: method), engine: engine)
                let source = FixedParameters(parameters)
                manager.parameterSource = source
                manager.loadData()
                let request = try #require(transport.requests.first)
                #expect(
                    request.url.absoluteString == reference(baseURL, method, query: query).absoluteString,
                    "base \(base), method \(method)")
                #expect(request.queryParameters == parameters)
                #expect(SignatureVerifier(secret: secret).verify(request, now: Date()) == .valid)
            }
        }
    }
}

/// Timeouts share one timer per engine; each call still times out on its own.
@MainActor
@Suite struct SharedTimeoutTests {
    @Test func callsInFlightTimeOutInTurnAnsweredOnesNeverAndTheTimerRearmsAfterIdling() async throws {
        let harness = Harness(timeout: .milliseconds(100))
        let managers = (0..<3).map { _ in APIManager(ListAPI(), engine: harness.engine) }
        let delegates = managers.map { _ in RecordingDelegate() }
        for (manager, delegate) in zip(managers, delegates) {
            manager.delegate = delegate
            manager.loadData()
        }
        // The middle call is answered; the first and the last are not.
        harness.transport.respond(json: ["items": []], to: 1)
        try await Task.sleep(for: .milliseconds(500))
        await harness.flush()
        #expect(delegates.map(\.kinds) == [[.timeout], [.success], [.timeout]])
        #expect(harness.transport.sent.map(\.task.isCancelled) == [true, false, true])

        // With nothing in flight the timer is idle; a new call arms it again.
        managers[1].loadData()
        try await Task.sleep(for: .milliseconds(500))
        await harness.flush()
        #expect(delegates[1].kinds == [.success, .timeout])
        #expect(harness.transport.sent.last?.task.isCancelled == true)
    }

    @Test func aCallAnsweredInTimeDoesNotTimeOutLater() async throws {
        let harness = Harness(timeout: .milliseconds(100))
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        for _ in 0..<20 {
            manager.loadData()
            harness.transport.respond(json: ["items": []])
            await harness.flush()
        }
        try await Task.sleep(for: .milliseconds(400))
        await harness.flush()
        #expect(delegate.kinds == Array(repeating: .success, count: 20))
    }
}
