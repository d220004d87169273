import Dispatch
import Foundation
import HomesAPI
import Listings
import ListingsCategory
import Networking
import Synchronization

/// Answers each request inline with the embedded API, so tests control every step.
final class InlineTransport: HTTPTransport, @unchecked Sendable {
    let server: HomesAPIServer
    private let lock = NSLock()
    private var held: [() -> Void] = []
    /// When set, responses wait until `release()`.
    var holding = false

    init(server: HomesAPIServer) {
        self.server = server
    }

    struct Task: TransportTask {
        func cancel() {}
    }

    func send(
        _ request: HTTPRequest, timeout: Duration,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
    ) -> any TransportTask {
        let respond = { [server] in completion(.success(server.handle(request))) }
        lock.lock()
        if holding {
            held.append(respond)
            lock.unlock()
        } else {
            lock.unlock()
            respond()
        }
        return Task()
    }

    /// Answers every held request, oldest first.
    func release() {
        lock.lock()
        let waiting = held
        held = []
        holding = false
        lock.unlock()
        waiting.forEach { $0() }
    }
}

/// The app's wiring with an inline transport; the test lets deliveries land with `flush()`.
@MainActor
struct HomesHarness {
    static let secret = Array("test-secret".utf8)
    let transport = InlineTransport(
        server: HomesAPIServer(
            seed: 7, count: 20, secret: HomesHarness.secret, nonceCapacity: 1 << 12,
            updatedBefore: Date(timeIntervalSince1970: 1_763_700_000)))
    let engine: APIEngine

    init() {
        let base = URL(string: "http://embedded.test/api")!
        engine = APIEngine(
            services: ServiceRegistry(
                ListingKind.allCases.map { $0.service(baseURL: base, signingSecret: Self.secret) }),
            transport: transport,
            // A request the test holds is in flight for as long as the test says: under a
            // loaded machine (the whole suite at once, under the thread sanitizer) that has
            // taken longer than the default 15 s. Timeouts have their own tests.
            timeout: .seconds(3_600)
        )
    }

    /// Runs `body`, then lets every delivery it caused land.
    func run<Result>(_ body: () -> Result) async -> Result {
        let result = body()
        await flush()
        return result
    }

    /// Lets every delivery queued to the main actor so far land, and the deliveries
    /// those cause (the main queue runs in FIFO order; each turn drains one generation).
    func flush() async {
        for _ in 0..<4 {
            await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        }
    }
}

/// Lines a scripted session reads, one per call, from the session's reading thread.
final class ScriptedLines: Sendable {
    private let lines: Mutex<[String]>

    init(_ lines: [String]) {
        self.lines = Mutex(lines)
    }

    func next() -> String? {
        lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

/// A clock that reads one second later at every call.
final class SteppingClock: Sendable {
    private let next: Mutex<Date>

    init(from start: Date) {
        next = Mutex(start)
    }

    @Sendable func now() -> Date {
        next.withLock { date in
            defer { date = date.addingTimeInterval(1) }
            return date
        }
    }
}

extension Process {
    /// Waits for the process to end, killing it first if it still runs after `seconds`: a
    /// test whose child goes wrong fails on its exit status instead of hanging the run.
    func waitUntilExit(killingAfter seconds: Double) {
        // The process cannot be reaped (and its id reused) before this wait returns.
        let pid = processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        waitUntilExit()
        watchdog.cancel()
    }
}
