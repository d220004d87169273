import Dispatch

/// Runs actions on a serial `DispatchQueue`, in the order they were scheduled.
///
/// ```swift
/// let background = QueueScheduler(label: "search")
/// queries.debounce(.milliseconds(300), on: background).observe { run($0) }
/// ```
public final class QueueScheduler: Scheduler {
    /// The serial queue actions run on.
    public let queue: DispatchQueue
    private let start = ContinuousClock.now

    /// Runs actions on `queue`, which should be serial.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    /// Runs actions on a new serial queue named `label`.
    public convenience init(label: String = "signals.queue-scheduler") {
        self.init(queue: DispatchQueue(label: label))
    }

    /// Time since the scheduler was created, on the continuous clock.
    public var now: Duration { ContinuousClock.now - start }

    /// Runs `action` on the queue as soon as possible.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        let task = ScheduledAction(action)
        queue.async { task.run() }
        return task
    }

    /// Runs `action` on the queue once `delay` has passed.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let task = ScheduledAction(action)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Self.nanoseconds(in: delay))) { task.run() }
        return task
    }
}

extension QueueScheduler {
    /// `delay` in whole nanoseconds, clamped to `0...Int.max` (about 292 years).
    static func nanoseconds(in delay: Duration) -> Int {
        let (seconds, attoseconds) = delay.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return Int.max }
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowAgain ? Int.max : Int(total)
    }
}

/// An action that runs at most once, unless it was cancelled first.
// Safe to share: `action` is touched only under `lock`.
package final class ScheduledAction: Disposable, @unchecked Sendable {
    private let lock = SpinLock()
    private var action: (@Sendable () -> Void)?

    package init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    package var isDisposed: Bool { lock.withLock { action == nil } }

    package func run() {
        take()?()
    }

    package func dispose() {
        withExtendedLifetime(take()) {}
    }

    private func take() -> (@Sendable () -> Void)? {
        lock.withLock { action.take() }
    }
}
