/// A scheduler with virtual time, for deterministic tests of timing operators.
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
// Safe to share: the entries, counter and clock are touched only under `lock`.
public final class TestScheduler: Scheduler, @unchecked Sendable {
    private struct Entry {
        let time: Duration
        let order: Int
        let action: ScheduledAction
    }

    private let lock = SpinLock()
    private var entries: [Entry] = []
    private var counter = 0
    private var current: Duration = .zero

    /// Creates a scheduler whose clock reads zero.
    public init() {}

    /// The current virtual time.
    public var now: Duration { lock.withLock { current } }

    /// Schedules `action` at the current virtual time; it runs on the next `advance` or `run`.
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
            entries.append(Entry(time: current + max(delay, .zero), order: counter, action: task))
        }
        return task
    }

    /// Moves the clock forward by `interval`, running every action due by then.
    public func advance(by interval: Duration = .zero) {
        let target = lock.withLock { current + max(interval, .zero) }
        runActions(until: target)
    }

    /// Moves the clock to `time` (if it is later than now), running every action due by then.
    public func advance(to time: Duration) {
        runActions(until: max(time, now))
    }

    /// Runs actions until none is left, moving the clock to each one's time.
    public func run() {
        runActions(until: nil)
    }

    /// Whether any action that has not been cancelled is waiting to run.
    public var hasPendingActions: Bool {
        lock.withLock { entries.contains { !$0.action.isDisposed } }
    }

    private func runActions(until target: Duration?) {
        while true {
            let next: Entry? = lock.withLock {
                guard let index = entries.indices.min(by: { earlier(entries[$0], entries[$1]) }),
                    target.map({ entries[index].time <= $0 }) ?? true
                else { return nil }
                let entry = entries.remove(at: index)
                current = max(current, entry.time)
                return entry
            }
            guard let next else { break }
            next.action.run()
        }
        if let target {
            lock.withLock { current = max(current, target) }
        }
    }

    private func earlier(_ a: Entry, _ b: Entry) -> Bool {
        a.time == b.time ? a.order < b.order : a.time < b.time
    }
}
