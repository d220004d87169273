import Dispatch
import Foundation

/// Hands each request to a Swift handler in this process, after an optional latency.
///
/// The app's embedded API and the tests use it: no sockets, same engine path.
///
/// ```swift
/// let transport = InProcessTransport(latency: .milliseconds(20)) { request in
///     .json(["items": []])
/// }
/// ```
// Safe to share: `latencyValue` is touched only under `lock`; the rest are `let`s of Sendable types.
public final class InProcessTransport: HTTPTransport, @unchecked Sendable {
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var latencyValue: Duration

    /// Serves requests with `handler`, each answered `latency` after it was sent.
    ///
    /// - Parameters:
    ///   - latency: The delay before each response; none unless given.
    ///   - queue: Where `handler` runs; a concurrent queue of its own unless given.
    ///   - handler: Answers each request.
    public init(
        latency: Duration = .zero,
        queue: DispatchQueue = DispatchQueue(label: "networking.in-process", attributes: .concurrent),
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        self.handler = handler
        self.queue = queue
        self.latencyValue = latency
    }

    /// The delay before each response.
    ///
    /// It can be changed at any time, from any thread.
    public var latency: Duration {
        get {
            lock.lock()
            defer { lock.unlock() }
            return latencyValue
        }
        set {
            lock.lock()
            latencyValue = newValue
            lock.unlock()
        }
    }

    public func send(
        _ request: HTTPRequest,
        timeout: Duration,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
    ) -> any TransportTask {
        let task = InProcessTask()
        let handler = self.handler
        let work: @Sendable () -> Void = {
            guard !task.isCancelled else { return }
            let response = handler(request)
            guard !task.isCancelled else { return }
            completion(.success(response))
        }
        let delay = latency
        if delay <= .zero {
            queue.async(execute: work)
        } else {
            queue.asyncAfter(deadline: .now() + .nanoseconds(Self.nanoseconds(delay)), execute: work)
        }
        return task
    }

    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int.max : Int(whole) + Int(attoseconds / 1_000_000_000)
    }
}

// Safe to share: `cancelled` is touched only under `lock`.
private final class InProcessTask: TransportTask, @unchecked Sendable {
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
