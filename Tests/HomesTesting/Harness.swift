import Dispatch
import Foundation
import HomesAPI
import Networking

/// Answers each request inline with the embedded API, so tests control every step.
package final class InlineTransport: HTTPTransport, @unchecked Sendable {
    package let server: HomesAPIServer
    private let lock = NSLock()
    private var held: [() -> Void] = []
    /// When set, responses wait until `release()`.
    package var holding = false

    package init(server: HomesAPIServer) {
        self.server = server
    }

    package struct Task: TransportTask {
        package func cancel() {}
    }

    package func send(
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
    package func release() {
        lock.lock()
        let waiting = held
        held = []
        holding = false
        lock.unlock()
        waiting.forEach { $0() }
    }
}

/// An engine over an inline transport to the embedded API; the test lets deliveries land
/// with `flush()`. Each test target gives it the services its feature calls (the listings'
/// tests and the app's, the listing services, in their `HomesHarness+Listings.swift`).
@MainActor
package struct HomesHarness {
    package static let secret = Array("test-secret".utf8)
    package let transport = InlineTransport(
        server: HomesAPIServer(
            seed: 7, count: 20, secret: HomesHarness.secret, nonceCapacity: 1 << 12,
            updatedBefore: Date(timeIntervalSince1970: 1_763_700_000)))
    package let engine: APIEngine
    /// The embedded API's address, the base of every service of the harness.
    package static let baseURL = URL(string: "http://embedded.test/api")!
    /// The account service (sign-in, inquiries, operation logs), signed with `secret`.
    package static let account = APIService(name: "account", baseURL: baseURL, signingSecret: secret)

    /// An engine that knows `services`.
    package init(services: [APIService]) {
        engine = APIEngine(
            services: ServiceRegistry(services),
            transport: transport,
            // A request the test holds is in flight for as long as the test says: under a
            // loaded machine (the whole suite at once, under the thread sanitizer) that has
            // taken longer than the default 15 s. Timeouts have their own tests.
            timeout: .seconds(3_600)
        )
    }

    /// Runs `body`, then lets every delivery it caused land.
    package func run<Result>(_ body: () -> Result) async -> Result {
        let result = body()
        await flush()
        return result
    }

    /// Lets every delivery queued to the main actor so far land, and the deliveries
    /// those cause (the main queue runs in FIFO order; each turn drains one generation).
    package func flush() async {
        for _ in 0..<4 {
            await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        }
    }
}
