import Dispatch
import Foundation
import Networking

/// A transport the test answers by hand.
// @unchecked Sendable: its only mutable state, the log of sent requests, is guarded by `lock`.
final class FakeTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked Sendable: `cancelled` is only read and written under `lock`.
    final class Task: TransportTask, @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false
        var isCancelled: Bool {
            lock.lock()
            defer { lock.unlock() }
            return cancelled
        }
        func cancel() {
            lock.lock()
            cancelled = true
            lock.unlock()
        }
    }

    struct Sent {
        let request: HTTPRequest
        let timeout: Duration
        let task: Task
        let completion: @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
    }

    private let lock = NSLock()
    private var log: [Sent] = []

    var sent: [Sent] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }
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
// @unchecked Sendable: `current` is only read and written under `lock`.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}

/// Records the delegate callbacks a manager makes, checking they land on the main actor.
@MainActor
final class RecordingDelegate: APIManagerDelegate {
    private(set) var results: [APIResult] = []
    private(set) var payloads: [JSONValue?] = []

    var kinds: [APIResultKind] { results.map(\.kind) }

    func apiManagerDidSucceed(_ manager: any APIManaging) {
        record(manager)
    }

    func apiManagerDidFail(_ manager: any APIManaging) {
        record(manager)
    }

    private func record(_ manager: any APIManaging) {
        MainActor.assertIsolated("a delegate is called on the main actor")
        dispatchPrecondition(condition: .onQueue(.main))
        results.append(manager.lastResult!)
        payloads.append(manager.fetchData())
    }
}

/// Supplies fixed parameters.
@MainActor
final class FixedParameters: APIManagerParameterSource {
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

/// An engine on a fake transport and clock; outcomes reach managers on the main actor.
/// Calls time out after an hour unless a test asks for less: a response the test holds
/// back must not time out because a loaded machine ran the test slowly.
struct Harness {
    let transport = FakeTransport()
    let clock = TestClock()
    let reachability = NetworkReachability()
    let engine: APIEngine

    init(
        cache: ResponseCache = ResponseCache(), timeout: Duration = .seconds(3_600),
        secret: [UInt8]? = Array("s3cret".utf8)
    ) {
        let clock = self.clock
        let counter = Counter()
        engine = APIEngine(
            services: ServiceRegistry([
                APIService(
                    name: "rentals", baseURL: URL(string: "https://api.example/v1")!,
                    signatureRejectedCodes: [4010], commonParameters: ["app": "homes"], signingSecret: secret)
            ]),
            transport: transport,
            cache: cache,
            reachability: reachability,
            timeout: timeout,
            clock: { clock.now },
            nonce: { "nonce-\(counter.next())" }
        )
    }

    /// Waits until every delivery queued to the main actor so far has landed.
    @MainActor
    func flush() async {
        await flushMainQueue()
    }
}

/// Lets everything queued on the main queue so far run, then a few rounds more for
/// deliveries those queued in turn (the main queue is FIFO).
@MainActor
func flushMainQueue(rounds: Int = 3) async {
    for _ in 0..<rounds {
        await withCheckedContinuation { (landed: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { landed.resume() }
        }
    }
}

/// Lets a test await callbacks that land on the main actor, one at a time, in order.
@MainActor
final class Arrivals {
    private var arrived = 0
    private var taken = 0
    private var waiter: (id: Int, continuation: CheckedContinuation<Bool, Never>)?
    private var lastWaiterID = 0

    /// One more callback landed.
    func signal() {
        arrived += 1
        guard let waiter else { return }
        self.waiter = nil
        taken += 1
        waiter.continuation.resume(returning: true)
    }

    /// Waits for the next callback not waited for yet; false when none lands within `seconds`.
    func wait(seconds: Double = 10) async -> Bool {
        if taken < arrived {
            taken += 1
            return true
        }
        lastWaiterID += 1
        let id = lastWaiterID
        return await withCheckedContinuation { continuation in
            waiter = (id, continuation)
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { [weak self] in
                guard let self, let waiter = self.waiter, waiter.id == id else { return }
                self.waiter = nil
                waiter.continuation.resume(returning: false)
            }
        }
    }
}

/// A thread-safe counter.
// @unchecked Sendable: `value` is only read and written under `lock`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }

    var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
