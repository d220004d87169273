import Dispatch
import Foundation
import Networking

/// A transport the test answers by hand.
final class FakeTransport: HTTPTransport, @unchecked Sendable {
    final class Task: TransportTask, @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false
        var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
        func cancel() { lock.lock(); cancelled = true; lock.unlock() }
    }

    struct Sent {
        let request: HTTPRequest
        let timeout: Duration
        let task: Task
        let completion: @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
    }

    private let lock = NSLock()
    private var log: [Sent] = []

    var sent: [Sent] { lock.lock(); defer { lock.unlock() }; return log }
    var requests: [HTTPRequest] { sent.map(\.request) }

    func send(
        _ request: HTTPRequest,
        timeout: Duration,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
    ) -> any TransportTask {
        let task = Task()
        lock.lock()
        log.append(Sent(request: request, timeout: timeout, task: task, completion: completion))
        lock.unlock()
        return task
    }

    /// Completes request `index` (the latest by default).
    func respond(_ outcome: Result<HTTPResponse, TransportFailure>, to index: Int? = nil) {
        let all = sent
        all[index ?? all.count - 1].completion(outcome)
    }

    func respond(json: JSONValue, status: Int = 200, to index: Int? = nil) {
        respond(.success(.json(json, status: status)), to: index)
    }
}

/// A clock the test moves.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    var now: Date { lock.lock(); defer { lock.unlock() }; return current }

    func advance(by seconds: TimeInterval) {
        lock.lock(); current += seconds; lock.unlock()
    }
}

/// Records the delegate callbacks a manager makes.
final class RecordingDelegate: APIManagerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var log: [APIResult] = []
    private var data: [JSONValue?] = []

    var results: [APIResult] { lock.lock(); defer { lock.unlock() }; return log }
    var kinds: [APIResultKind] { results.map(\.kind) }
    var payloads: [JSONValue?] { lock.lock(); defer { lock.unlock() }; return data }

    func apiManagerDidSucceed(_ manager: any APIManaging) {
        record(manager)
    }

    func apiManagerDidFail(_ manager: any APIManaging) {
        record(manager)
    }

    private func record(_ manager: any APIManaging) {
        lock.lock()
        log.append(manager.lastResult!)
        data.append(manager.fetchData())
        lock.unlock()
    }
}

/// Supplies fixed parameters.
final class FixedParameters: APIManagerParameterSource, @unchecked Sendable {
    var parameters: [String: String]
    init(_ parameters: [String: String] = [:]) { self.parameters = parameters }
    func parameters(for manager: any APIManaging) -> [String: String] { parameters }
}

struct ListAPI: APIDefinition {
    var serviceName = "rentals"
    var methodName = "rentals/list"
    var requestStrategy = RequestStrategy.ignoreNewWhileLoading
    var cachePolicy = CachePolicy.none
    var pageSize: Int? = nil
    var httpMethod = HTTPMethod.get

    func validateParameters(_ parameters: [String: String]) -> String? {
        parameters["city"] == "" ? "city must not be empty" : nil
    }

    func validateResponse(_ response: JSONValue) -> String? {
        response["items"]?.arrayValue == nil ? "items missing" : nil
    }
}

/// An engine on a fake transport and clock, with a callback queue the test can flush.
struct Harness {
    let transport = FakeTransport()
    let clock = TestClock()
    let queue = DispatchQueue(label: "test.callbacks")
    let reachability = NetworkReachability()
    let engine: APIEngine

    init(cache: ResponseCache = ResponseCache(), timeout: Duration = .seconds(30), secret: [UInt8]? = Array("s3cret".utf8)) {
        let clock = self.clock
        let counter = Counter()
        engine = APIEngine(
            services: ServiceRegistry([
                APIService(name: "rentals", baseURL: URL(string: "https://api.example/v1")!,
                           signatureRejectedCodes: [4010], commonParameters: ["app": "homes"], signingSecret: secret),
            ]),
            transport: transport,
            cache: cache,
            reachability: reachability,
            callbackQueue: queue,
            timeout: timeout,
            clock: { clock.now },
            nonce: { "nonce-\(counter.next())" }
        )
    }

    /// Waits until every delivery queued so far has run.
    func flush() {
        queue.sync {}
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value
    }

    var current: Int { lock.lock(); defer { lock.unlock() }; return value }
}
