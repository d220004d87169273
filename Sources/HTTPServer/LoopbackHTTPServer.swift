import CEventPoll
import Dispatch
import Foundation
import Networking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 that hands each request to a Swift handler.
///
/// Serves the app's embedded API over real HTTP (`homes serve`) and the end-to-end tests
/// of `URLSessionTransport`. A few event loops (one per core) multiplex every connection:
/// connections persist, pipelined requests are answered in order, chunked bodies are
/// decoded, and a malformed request is answered at once with the status that says why.
/// A connection must send each request head within `headDeadline` and its body within
/// `bodyDeadline`; at `maximumConnections` the longest-idle connection is closed to make
/// room. The handler runs on the loop that read the request, so it should be quick.
/// Never listens beyond the loopback address.
///
/// A request with a body is shown to the `screen`, if there is one, as soon as its head has
/// arrived and before any of its body is read: a request the screen refuses (a signature
/// that cannot hold, say) costs the server its head, not its body. The bodies being
/// received at once hold at most `maximumBodyBytesInFlight` bytes between them.
///
/// ```swift
/// let server = LoopbackHTTPServer { request in .json(["ok": true]) }
/// let port = try server.start()
/// defer { server.stop() }
/// ```
package final class LoopbackHTTPServer: Sendable {
    /// Why the server could not start.
    package struct StartError: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        package let description: String
    }

    private let core: ServerCore
    private let requestedPort: UInt16
    private let loopCount: Int

    /// A server on `port` (0 picks a free one) answering with `handler`.
    ///
    /// - Parameters:
    ///   - maximumBodySize: larger request bodies get 413.
    ///   - maximumHeadSize: larger request heads get 431.
    ///   - maximumConnections: at this many open connections, a new one closes the
    ///     longest-idle one.
    ///   - headDeadline: a connection that has not sent a whole request head this long
    ///     after it opened (or after its last response) is closed.
    ///   - bodyDeadline: a body must arrive whole this long after its head.
    ///   - eventLoops: threads serving connections; one per core by default.
    ///   - maximumBodyBytesInFlight: the most bytes the bodies being received may claim at
    ///     once, over every connection (at least `maximumBodySize`). A request claims its
    ///     `Content-Length` (a chunked one, `maximumBodySize`) once its head has passed the
    ///     screen, until it is answered; one that would not fit is refused with 503 and
    ///     `Retry-After` before its body is read.
    ///   - screen: called with the head of each request that has a body (its method, URL
    ///     and fields; no body) once the head has arrived, before any of the body is read
    ///     and before `100 Continue` is sent. A response it returns refuses the request: it
    ///     is sent at once, the body is neither buffered nor hashed (what still arrives is
    ///     discarded unread while the connection closes), and the connection closes. Nil
    ///     lets the request through to `handler`, body and all. It runs on the loop, so it
    ///     should be quick. A request without a body goes to `handler` directly.
    ///   - handler: answers each whole request.
    package init(
        port: UInt16 = 0, maximumBodySize: Int = 1 << 20, maximumHeadSize: Int = 64 << 10,
        maximumConnections: Int = 1_024, headDeadline: Duration = .seconds(5),
        bodyDeadline: Duration = .seconds(10), eventLoops: Int? = nil, maximumBodyBytesInFlight: Int = 64 << 20,
        screen: (@Sendable (HTTPRequest) -> HTTPResponse?)? = nil,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        self.requestedPort = port
        self.loopCount = max(1, eventLoops ?? ProcessInfo.processInfo.activeProcessorCount)
        self.core = ServerCore(
            handler: handler, screen: screen,
            limits: ServerLimits(
                maximumBodySize: maximumBodySize, maximumHeadSize: maximumHeadSize,
                maximumConnections: max(1, maximumConnections), headDeadline: headDeadline, bodyDeadline: bodyDeadline,
                maximumBodyBytesInFlight: max(maximumBodySize, maximumBodyBytesInFlight)))
    }

    deinit {
        stop()
    }

    /// The largest request body accepted.
    package var maximumBodySize: Int { core.limits.maximumBodySize }

    /// The port being listened on, once started.
    package var port: UInt16 { core.port }

    /// How many connections are open now.
    package var openConnections: Int { core.openConnections.load(ordering: .relaxed) }

    /// Body bytes taken into requests (buffered and hashed) since the server started, over
    /// every request: the body of a request refused from its head is not among them.
    package var bodyBytesRead: Int { core.bodyBytesRead.load(ordering: .relaxed) }

    /// Requests with a body refused from their heads alone, before any of the body was
    /// read: by the screen, for a method or target that cannot be answered, or for want of
    /// room among the bodies in flight.
    package var refusedBeforeBody: Int { core.refusedBeforeBody.load(ordering: .relaxed) }

    /// The base URL of the server, once started.
    package var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Binds 127.0.0.1 and starts serving; returns the port. A server starts once.
    @discardableResult
    package func start() throws -> UInt16 {
        guard core.claimStart() else { throw StartError(description: "the server was already started") }
        let listener = socket(
            AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw StartError(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requestedPort.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, SOMAXCONN) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw StartError(description: "cannot listen on 127.0.0.1:\(requestedPort): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = UInt16(bigEndian: actual.sin_port)
        var loops: [LoopHandles] = []
        for _ in 0..<loopCount {
            guard let handles = LoopHandles(listener: listener) else {
                let reason = String(cString: strerror(errno))
                loops.forEach { $0.close() }
                close(listener)
                throw StartError(description: "cannot start an event loop: \(reason)")
            }
            loops.append(handles)
        }
        core.listening(on: listener, port: port, loops: loops)
        for (index, handles) in loops.enumerated() {
            let core = self.core
            let thread = Thread {
                let loop = EventLoop(core: core, handles: handles)
                loop.run()
                core.loopFinished()
            }
            thread.name = "http-server.loop-\(index)"
            thread.start()
        }
        return port
    }

    /// Stops serving: closes every connection and the listening socket. Returns once they
    /// are closed (unless called from a handler, which cannot wait for its own loop).
    package func stop() {
        core.stop()
    }
}

/// What the server refuses and when it gives up on a connection.
struct ServerLimits: Sendable {
    let maximumBodySize: Int
    let maximumHeadSize: Int
    let maximumConnections: Int
    let headDeadline: Duration
    let bodyDeadline: Duration
    let maximumBodyBytesInFlight: Int
}

/// One event loop's descriptors: its epoll instance and the eventfd that wakes it.
struct LoopHandles: Sendable {
    let epoll: Int32
    let wake: Int32
    let listener: Int32

    /// Creates both and registers the listener and the wake-up descriptor; nil on failure.
    init?(listener: Int32) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        self.listener = listener
        guard epoll >= 0, wake >= 0 else {
            close()
            return nil
        }
        // Every loop accepts; EPOLLEXCLUSIVE wakes one of them per new connection.
        guard EventLoop.register(listener, events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, in: epoll),
            EventLoop.register(wake, events: EPOLLIN.rawValue, in: epoll)
        else {
            close()
            return nil
        }
    }

    func close() {
        if epoll >= 0 { Glibc.close(epoll) }
        if wake >= 0 { Glibc.close(wake) }
    }

    /// Wakes the loop from another thread.
    func signal() {
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }
}

/// What the server object and its loops share. The loops own their connections; this
/// holds only counters and the descriptors needed to stop.
// Safe to share: `lets` of Sendable types and atomics; `state` is touched only under
// `lock` (an NSLock rather than a Mutex: ThreadSanitizer on Linux does not see a
// Mutex's futex hand-off and reports races that are not there).
final class ServerCore: @unchecked Sendable {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let screen: (@Sendable (HTTPRequest) -> HTTPResponse?)?
    let limits: ServerLimits
    let openConnections = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)
    let bodyBytesRead = Atomic<Int>(0)
    let refusedBeforeBody = Atomic<Int>(0)
    /// Bytes claimed by the bodies being received, over every loop.
    let bodyRoomClaimed = Atomic<Int>(0)

    private struct State {
        var started = false
        var listener: Int32 = -1
        var port: UInt16 = 0
        var loops: [LoopHandles] = []
        var running = 0
        var loopThreads: [pthread_t] = []
    }

    private let lock = NSLock()
    private var stateValue = State()
    private let allFinished = DispatchGroup()

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&stateValue)
    }

    init(
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
        screen: (@Sendable (HTTPRequest) -> HTTPResponse?)?, limits: ServerLimits
    ) {
        self.handler = handler
        self.screen = screen
        self.limits = limits
    }

    var port: UInt16 {
        withState { $0.port }
    }

    /// Claims room for a body of `count` bytes among those in flight; false, claiming
    /// nothing, when it would not fit.
    func claimBodyRoom(_ count: Int) -> Bool {
        let claimed = bodyRoomClaimed.wrappingAdd(count, ordering: .relaxed).newValue
        guard claimed > limits.maximumBodyBytesInFlight else { return true }
        bodyRoomClaimed.wrappingSubtract(count, ordering: .relaxed)
        return false
    }

    func releaseBodyRoom(_ count: Int) {
        bodyRoomClaimed.wrappingSubtract(count, ordering: .relaxed)
    }

    func claimStart() -> Bool {
        withState { state in
            guard !state.started else { return false }
            state.started = true
            return true
        }
    }

    func listening(on listener: Int32, port: UInt16, loops: [LoopHandles]) {
        withState { state in
            state.listener = listener
            state.port = port
            state.loops = loops
            state.running = loops.count
        }
        for _ in loops { allFinished.enter() }
    }

    /// Called on each loop's thread as it starts, so `stop` knows not to wait for itself.
    func loopStarted() {
        withState { $0.loopThreads.append(pthread_self()) }
    }

    /// A loop has closed its connections; the last one closes the listener.
    func loopFinished() {
        let last: Int32? = withState { state in
            state.running -= 1
            guard state.running == 0 else { return nil }
            let listener = state.listener
            state.listener = -1
            return listener
        }
        if let last, last >= 0 { close(last) }
        allFinished.leave()
    }

    func stop() {
        let (loops, onLoopThread) = withState { state in
            (state.loops, state.loopThreads.contains { pthread_equal($0, pthread_self()) != 0 })
        }
        guard !loops.isEmpty, !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loops.forEach { $0.signal() }
        if !onLoopThread { allFinished.wait() }
    }
}
