import Dispatch
import Foundation
import HomesAPI
import Listings
import Networking

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

    func send(_ request: HTTPRequest, timeout: Duration,
              completion: @escaping @Sendable (Result<HTTPResponse, TransportFailure>) -> Void) -> any TransportTask {
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

/// The app's wiring with an inline transport and a queue the test drains.
struct HomesHarness {
    static let secret = Array("test-secret".utf8)
    let queue = DispatchQueue(label: "homes.test")
    let transport = InlineTransport(server: HomesAPIServer(seed: 7, count: 20, secret: HomesHarness.secret,
                                                           updatedBefore: Date(timeIntervalSince1970: 1_763_700_000)))
    let engine: APIEngine

    init() {
        let base = URL(string: "http://embedded.test/api")!
        engine = APIEngine(
            services: ServiceRegistry([
                APIService(name: "rentals", baseURL: base, signingSecret: Self.secret),
                APIService(name: "newhomes", baseURL: base, pageKey: "xinfang_page", pageSizeKey: "xinfang_page_size",
                           signingSecret: Self.secret),
                APIService(name: "resale", baseURL: base, pageKey: "esf_page", pageSizeKey: "esf_page_size",
                           signingSecret: Self.secret),
            ]),
            transport: transport,
            callbackQueue: queue
        )
    }

    /// Runs `body` on the app queue, then lets every delivery it caused land.
    func run<Result>(_ body: () -> Result) -> Result {
        let result = queue.sync(execute: body)
        queue.sync {}
        return result
    }
}
