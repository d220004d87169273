import Foundation
import Signals

/// A `Clock` that reads the virtual time of a ``TestScheduler``.
///
/// Async code that sleeps on it waits for the test to advance the scheduler, with no real
/// waiting. Get one from ``TestScheduler/clock``. A sleep on it is an entry of the scheduler, due at
/// its deadline, so sleeps and the scheduler's actions (a `debounce`, a `delay`) share one
/// timeline: `advance(by:)` ends them in the order of their due times, ties in the order
/// they were scheduled.
///
/// Code that sleeps takes its clock as a parameter, typed `any Clock<Duration>` or
/// `some Clock<Duration>`: production passes `ContinuousClock()` (the clock that
/// `QueueScheduler` and `MainScheduler` measure time on), tests pass `scheduler.clock`.
///
/// ```swift
/// func poll(every interval: Duration, clock: any Clock<Duration>) async throws {
///     while true {
///         try await clock.sleep(for: interval)
///         refresh()
///     }
/// }
///
/// let scheduler = TestScheduler()
/// let polling = Task(executorPreference: scheduler) {
///     try await poll(every: .seconds(600), clock: scheduler.clock)
/// }
/// scheduler.advance(by: .seconds(1800))   // refresh() has run three times, at once
/// polling.cancel()
/// ```
///
/// The clock holds nothing of its own: it is a view of the scheduler, and any number of
/// them may be made. What `advance` guarantees for a sleeping task, what it does not, and
/// why the clock is a type beside the scheduler are in "Virtual time" in the Signals contract.
public struct TestClock: Clock {
    /// A moment of a ``TestScheduler``'s virtual time.
    public struct Instant: InstantProtocol {
        /// The virtual time since the scheduler was created (its ``TestScheduler/now``).
        public let offset: Duration

        /// The instant `duration` later (or earlier, if it is negative).
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    let scheduler: TestScheduler

    /// The scheduler's current virtual time.
    public var now: Instant { Instant(offset: scheduler.now) }

    /// The clock's resolution, zero because virtual time has no granularity.
    public var minimumResolution: Duration { .zero }

    /// Suspends until the scheduler's virtual time reaches `deadline`.
    ///
    /// Schedules the end of the sleep on the scheduler at `deadline`; the `advance` (or
    /// `run`) that reaches it resumes the sleep, in turn with the actions and other sleeps
    /// due then. Returns at once when `deadline` has already been reached (is not later
    /// than ``now``).
    ///
    /// - Parameters:
    ///   - deadline: The virtual time to wake at.
    ///   - tolerance: Ignored: virtual time is exact.
    /// - Throws: `CancellationError`, at once, when the task is cancelled before or during
    ///   the sleep; the sleep is then removed from the scheduler.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        if deadline.offset <= scheduler.now { return }
        let sleeper = Waiter()
        let scheduler = scheduler
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard sleeper.wait(continuation) else { return }
                if scheduler.addSleeper(sleeper, at: deadline.offset) == .due {
                    sleeper.finish(.success(()))
                }
            }
        } onCancel: {
            if sleeper.finish(.failure(CancellationError())) {
                scheduler.removeSleeper(sleeper)
            }
        }
    }

    /// The number of sleeps waiting on this clock.
    ///
    /// A sleep waits from when it starts until it is resumed or cancelled.
    public var sleeperCount: Int { scheduler.sleeperCount }

    /// Returns once at least `count` sleeps wait on this clock.
    ///
    /// It returns at once when they already do.
    ///
    /// Use it before advancing when the code under test sleeps in a task that does not run
    /// on the scheduler: the task may not have reached its sleep yet, and advancing first
    /// would move time past a sleep that then starts late. Nothing polls: the sleep that
    /// makes the count resumes the wait.
    ///
    /// - Throws: `CancellationError` when the waiting task is cancelled (a test that
    ///   expects more sleeps than ever come waits until its time limit cancels it).
    public func waitForSleepers(count: Int = 1) async throws {
        try Task.checkCancellation()
        let wait = Waiter()
        let scheduler = scheduler
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard wait.wait(continuation) else { return }
                if !scheduler.addSleeperWait(wait, count: count) {
                    wait.finish(.success(()))
                }
            }
        } onCancel: {
            if wait.finish(.failure(CancellationError())) {
                scheduler.removeSleeperWait(wait)
            }
        }
    }
}

/// A continuation resumed once, by whichever comes first: the event it waits for or the
/// cancellation of its task (which may come before the continuation exists).
// Safe to share: `state` is touched only under `lock`.
final class Waiter: @unchecked Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Void, any Error>)
        case finished(Result<Void, any Error>)
    }

    private let lock = NSLock()
    private var state = State.idle

    /// Whether the wait has ended.
    var isFinished: Bool {
        lock.withLock {
            if case .finished = state { return true }
            return false
        }
    }

    /// Keeps `continuation` until `finish`; when the wait has already ended, resumes it
    /// with that outcome and returns false.
    func wait(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let outcome: Result<Void, any Error>? = lock.withLock {
            switch state {
            case .idle:
                state = .waiting(continuation)
                return nil
            case .finished(let outcome):
                return outcome
            case .waiting:
                preconditionFailure("a Waiter waits once")
            }
        }
        guard let outcome else { return true }
        continuation.resume(with: outcome)
        return false
    }

    /// Ends the wait with `outcome`, resuming the continuation if there is one; false when
    /// the wait had already ended.
    @discardableResult
    func finish(_ outcome: Result<Void, any Error>) -> Bool {
        let (ended, continuation): (Bool, CheckedContinuation<Void, any Error>?) = lock.withLock {
            switch state {
            case .idle:
                state = .finished(outcome)
                return (true, nil)
            case .waiting(let continuation):
                state = .finished(outcome)
                return (true, continuation)
            case .finished:
                return (false, nil)
            }
        }
        continuation?.resume(with: outcome)
        return ended
    }
}
