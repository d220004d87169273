import Foundation
import Signals

/// A scheduler with virtual time, for deterministic tests of timing and of async code.
///
/// Nothing runs until the test advances time; `advance(by:)` runs every action due at or
/// before the new time, in time order (ties in the order they were scheduled), including
/// actions that those actions schedule.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let (queries, query) = Signal<String>.pipe()
/// let settled = queries.debounce(.milliseconds(300), on: scheduler)
/// query.send("ho")
/// scheduler.advance(by: .milliseconds(300))   // "ho" is emitted now
/// ```
///
/// ## Async code
///
/// Async code sleeps in virtual time on ``clock``, a `Clock` whose sleeps are entries of
/// this scheduler: they end in the same `advance` as the actions, in order of their due
/// times. The scheduler is also a `TaskExecutor`: a task started with
/// `Task(executorPreference: scheduler)` runs its code inside `advance` and `run`, so a
/// test needs no waiting at all (see ``enqueue(_:)`` for what that guarantees).
// Safe to share: the entries, jobs, waits, counter and clock are touched only under `lock`.
public final class TestScheduler: Scheduler, TaskExecutor, @unchecked Sendable {
    private struct Entry {
        let time: Duration
        let order: Int
        let action: ScheduledAction
        /// The sleep this entry ends, for an entry made by ``TestClock``.
        let sleeper: Waiter?
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    /// Task jobs enqueued on this executor, in arrival order.
    private var jobs: [UnownedJob] = []
    /// Callers of `waitForSleepers(count:)` and the count each one waits for.
    private var sleeperWaits: [(count: Int, waiter: Waiter)] = []
    private var counter = 0
    private var current: Duration = .zero

    /// Creates a scheduler whose clock reads zero.
    public init() {}

    /// The current virtual time.
    public var now: Duration { lock.withLock { current } }

    /// Schedules `action` at the current virtual time.
    ///
    /// The action runs on the next `advance` or `run`.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        schedule(after: .zero, action)
    }

    /// Schedules `action` at the current virtual time plus `delay`.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let task = ScheduledAction(action)
        lock.withLock {
            counter += 1
            entries.append(Entry(time: current + max(delay, .zero), order: counter, action: task, sleeper: nil))
        }
        return task
    }

    /// Keeps a job of a task that prefers this executor, to run on the next `advance` or `run`.
    ///
    /// Start a task with `Task(executorPreference: scheduler) { ... }`; its code then runs
    /// inside `advance`, at the virtual time of the action or sleep that resumed it. When
    /// `advance(by:)` returns, every such task has run as far as it can. What is
    /// guaranteed, what is not (code on another executor), and the one thing never to do
    /// (await on this executor from the code that advances it) are in "Virtual time" in
    /// the Signals contract.
    ///
    /// - Parameter job: The task's job; it runs at the virtual time of the moment it is
    ///   run.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { jobs.append(job) }
    }

    /// Moves the clock forward by `interval`, running every action due by then.
    public func advance(by interval: Duration = .zero) {
        let target = lock.withLock { current + max(interval, .zero) }
        runActions(until: target)
    }

    /// Moves the clock to `time`, running every action due by then.
    ///
    /// A `time` not later than ``now`` leaves the clock where it is and runs what is due.
    public func advance(to time: Duration) {
        runActions(until: max(time, now))
    }

    /// Runs actions until none is left, moving the clock to each one's time.
    public func run() {
        runActions(until: nil)
    }

    /// Whether an action or a task's job is waiting to run.
    ///
    /// Cancelled actions do not count.
    public var hasPendingActions: Bool {
        lock.withLock { !jobs.isEmpty || entries.contains { !$0.action.isDisposed } }
    }

    /// The virtual time as ``clock`` reads it.
    public var clock: TestClock { TestClock(scheduler: self) }

    private enum Work {
        case action(ScheduledAction)
        case job(UnownedJob)
    }

    private func runActions(until target: Duration?) {
        while true {
            let next: Work? = lock.withLock {
                if !jobs.isEmpty {
                    return .job(jobs.removeFirst())
                }
                guard let index = entries.indices.min(by: { earlier(entries[$0], entries[$1]) }),
                    target.map({ entries[index].time <= $0 }) ?? true
                else { return nil }
                let entry = entries.remove(at: index)
                current = max(current, entry.time)
                return .action(entry.action)
            }
            switch next {
            case .action(let action): action.run()
            case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
            case nil:
                if let target {
                    lock.withLock { current = max(current, target) }
                }
                return
            }
        }
    }

    private func earlier(_ a: Entry, _ b: Entry) -> Bool {
        a.time == b.time ? a.order < b.order : a.time < b.time
    }
}

// The sleeps of `TestClock`: entries that end a `Waiter`.
extension TestScheduler {
    /// What `addSleeper` did with a sleep.
    enum SleeperAdded {
        /// The deadline is not later than now: the sleep ends at once.
        case due
        /// The sleep was cancelled before it could be added.
        case cancelled
        /// An entry ends the sleep when its time comes.
        case added
    }

    /// Adds an entry at `deadline` that ends `sleeper`, unless the deadline has been
    /// reached or the sleeper has already ended (cancelled); then wakes the callers of
    /// `waitForSleepers` whose count is reached.
    func addSleeper(_ sleeper: Waiter, at deadline: Duration) -> SleeperAdded {
        let (added, satisfied): (SleeperAdded, [Waiter]) = lock.withLock {
            if deadline <= current { return (.due, []) }
            if sleeper.isFinished { return (.cancelled, []) }
            counter += 1
            let action = ScheduledAction { sleeper.finish(.success(())) }
            entries.append(Entry(time: deadline, order: counter, action: action, sleeper: sleeper))
            let count = sleeperCountLocked
            let satisfied = sleeperWaits.filter { $0.count <= count }.map(\.waiter)
            sleeperWaits.removeAll { $0.count <= count }
            return (.added, satisfied)
        }
        for waiter in satisfied {
            waiter.finish(.success(()))
        }
        return added
    }

    /// Removes the entry of a cancelled sleep (if it is still there).
    func removeSleeper(_ sleeper: Waiter) {
        lock.withLock { entries.removeAll { $0.sleeper === sleeper } }
    }

    /// The sleeps waiting for their time.
    var sleeperCount: Int { lock.withLock { sleeperCountLocked } }

    private var sleeperCountLocked: Int { entries.count { $0.sleeper != nil } }

    /// Keeps `waiter` until `count` sleeps wait; false when they already do (or the waiter
    /// was cancelled).
    func addSleeperWait(_ waiter: Waiter, count: Int) -> Bool {
        lock.withLock {
            guard sleeperCountLocked < count, !waiter.isFinished else { return false }
            sleeperWaits.append((count, waiter))
            return true
        }
    }

    /// Forgets a cancelled wait.
    func removeSleeperWait(_ waiter: Waiter) {
        lock.withLock { sleeperWaits.removeAll { $0.waiter === waiter } }
    }
}
