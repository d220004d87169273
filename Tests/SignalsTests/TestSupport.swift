import Dispatch
import Foundation

/// A value that `@Sendable` observers may read and change from any thread: every access
/// takes the lock.
///
/// Tests keep what their observers see in one of these, since `observe` closures run on
/// the sending thread and the compiler refuses captured `var`s there. (An `NSLock`, not a
/// `Synchronization.Mutex`: the thread sanitizer on Linux does not see the ordering a
/// contended `Mutex` provides and reports false races.)
// Safe to share: `stored` is touched only under `lock`.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    /// The current value; setting replaces it.
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Runs `body` with the value, holding the lock.
    @discardableResult
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&stored) }
    }
}

extension Locked where Value: RangeReplaceableCollection {
    /// Appends `element`.
    func append(_ element: Value.Element) {
        withLock { $0.append(element) }
    }
}

extension Locked where Value == Int {
    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        withLock { value in
            value += 1
            return value
        }
    }
}

extension Locked where Value == Bool {
    /// Sets the flag and returns what it was before (false for the first caller only).
    func testAndSet() -> Bool {
        withLock { value in
            defer { value = true }
            return value
        }
    }
}

/// Lets the main queue run everything queued on it so far (deliveries queued to the main
/// actor are blocks on the main queue, which runs them in FIFO order).
@MainActor
func mainQueueTurn() async {
    await withCheckedContinuation { continuation in
        DispatchQueue.main.async { continuation.resume() }
    }
}

/// Gives the main queue turns until `condition` holds, at most `turns` times (no sleeping:
/// each turn runs whatever is queued before it). Returns whether `condition` holds.
@MainActor @discardableResult
func mainQueueTurns(until condition: () -> Bool, turns: Int = 10_000) async -> Bool {
    for _ in 0..<turns {
        if condition() { return true }
        await mainQueueTurn()
    }
    return condition()
}

/// A log of events that a test can await: `wait(forCount:)` returns once that many events
/// have been appended, from any thread. Tests that await one carry a time limit, so a
/// missing event fails the test instead of hanging it.
final class EventLog<Event: Sendable>: Sendable {
    private struct State {
        var events: [Event] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    init() {}

    /// Every event appended so far, in order.
    var events: [Event] { state.value.events }

    func append(_ event: Event) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            let count = state.events.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once at least `count` events have been appended.
    func wait(forCount count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state -> Bool in
                if state.events.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }
}

/// Suspends work until the task running it is cancelled (or returns at once if it already is).
final class CancellationGate: Sendable {
    private let state = Locked<(cancelled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
    private let onWaiting: @Sendable () -> Void

    /// - Parameter onWaiting: Called when work starts waiting, not cancelled yet.
    init(onWaiting: @escaping @Sendable () -> Void = {}) {
        self.onWaiting = onWaiting
    }

    /// Whether the task waiting here, or about to, has been cancelled.
    var isCancelled: Bool { state.value.cancelled }

    func waitForCancellation() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancelled = state.withLock { state -> Bool in
                    if state.cancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if cancelled { continuation.resume() } else { onWaiting() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}

/// A serial queue that code can recognise: `isCurrent` tells whether the caller runs on it.
final class MarkedQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()

    init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

    /// Holds the queue until `release` is signalled, so work scheduled meanwhile waits.
    func hold() -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        queue.async { release.wait() }
        return release
    }
}

/// Runs `body(index)` on `threads` dispatch threads at once and returns when all are done,
/// without blocking the caller's thread.
func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for index in 0..<threads {
            DispatchQueue.global().async(group: group) { body(index) }
        }
        group.notify(queue: .global()) { continuation.resume() }
    }
}
