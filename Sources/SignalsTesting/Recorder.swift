import Foundation
import Signals

/// One event a recorder saw, a value or the completion.
public enum RecordedEvent<Value> {
    /// A value.
    case value(Value)
    /// The completion.
    case completed
}

extension RecordedEvent: Equatable where Value: Equatable {}

extension RecordedEvent: Sendable where Value: Sendable {}

extension RecordedEvent: CustomStringConvertible {
    /// `value(1)` or `completed`.
    public var description: String {
        switch self {
        case .value(let value): return "value(\(value))"
        case .completed: return "completed"
        }
    }
}

/// Records everything a signal or property emits, for assertions.
///
/// Recording on a `TestScheduler` also stores the virtual time of each event, which
/// marble assertions use. In exhaustive mode every recorded event must be consumed
/// with `expect...` calls; `finish()` (or freeing the recorder) fails on the rest. Events
/// that come from another task are awaited with `first(where:)`, `values(count:)` and
/// `completion()`, which count what was recorded before the call.
///
/// ```swift
/// let recorder = signal.map { $0 * 2 }.record()
/// input.send(1); input.send(2)
/// recorder.assertValues([2, 4])
/// ```
// Safe to share: every mutable field is touched only under `lock`.
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedEvents: [(time: Duration?, event: RecordedEvent<Value>)] = []
    private var consumed = 0
    private var finished = false
    private var subscription: Disposable?
    /// Called after each event is recorded (outside `lock`): the pending waits' catch-ups.
    private var listeners: [Int: @Sendable () -> Void] = [:]
    private var nextListener = 0
    /// The scheduler whose clock stamps each event, if any.
    public let scheduler: TestScheduler?
    /// Whether unconsumed events fail the test at `finish()`.
    public let isExhaustive: Bool
    private let origin: (fileID: String, filePath: StaticString, line: UInt, column: UInt)

    init(
        scheduler: TestScheduler?,
        exhaustive: Bool,
        origin: (fileID: String, filePath: StaticString, line: UInt, column: UInt)
    ) {
        self.scheduler = scheduler
        self.isExhaustive = exhaustive
        self.origin = origin
    }

    deinit {
        subscription?.dispose()
        if isExhaustive && !finished {
            checkExhausted(fileID: origin.fileID, filePath: origin.filePath, line: origin.line, column: origin.column)
        }
    }

    /// A recorder fed by `values` and `completion`, which subscribe the closures given.
    static func attached(
        scheduler: TestScheduler?,
        exhaustive: Bool,
        origin: (fileID: String, filePath: StaticString, line: UInt, column: UInt),
        values: (@escaping @Sendable (Value) -> Void) -> Disposable,
        completion: (@escaping @Sendable () -> Void) -> Disposable
    ) -> Recorder<Value> {
        let recorder = Recorder(scheduler: scheduler, exhaustive: exhaustive, origin: origin)
        let valueSubscription = values { [weak recorder] in recorder?.append(.value($0)) }
        let completionSubscription = completion { [weak recorder] in recorder?.append(.completed) }
        recorder.lock.locked { recorder.subscription = Disposables(valueSubscription, completionSubscription) }
        return recorder
    }

    func append(_ event: RecordedEvent<Value>) {
        let time = scheduler?.now
        let listeners = lock.locked {
            storedEvents.append((time, event))
            return self.listeners.isEmpty ? [] : Array(self.listeners.values)
        }
        for listener in listeners { listener() }
    }

    /// The events recorded from position `start` on (`start` at most the count recorded).
    func events(from start: Int) -> [RecordedEvent<Value>] {
        lock.locked { storedEvents[start...].map(\.event) }
    }

    /// Calls `listener` after every event recorded from now on, on the recording thread and
    /// outside the lock; returns the key that removes it.
    func addListener(_ listener: @escaping @Sendable () -> Void) -> Int {
        lock.locked {
            nextListener += 1
            listeners[nextListener] = listener
            return nextListener
        }
    }

    /// Stops calling the listener added under `key`.
    func removeListener(_ key: Int) {
        _ = lock.locked { listeners.removeValue(forKey: key) }
    }

    /// Every event recorded so far.
    public var events: [RecordedEvent<Value>] { lock.locked { storedEvents.map(\.event) } }

    /// Every event with the virtual time it arrived at (nil without a scheduler).
    public var timedEvents: [(time: Duration?, event: RecordedEvent<Value>)] { lock.locked { storedEvents } }

    /// Every value recorded so far.
    public var values: [Value] {
        events.compactMap { if case .value(let value) = $0 { return value } else { return nil } }
    }

    /// Whether the completion was recorded.
    public var isCompleted: Bool {
        events.contains { if case .completed = $0 { return true } else { return false } }
    }

    /// Stops recording.
    ///
    /// Later events are not recorded.
    public func stop() {
        let subscription = lock.locked { self.subscription }
        subscription?.dispose()
    }

    // MARK: - Exhaustive use

    /// The events not yet consumed by an `expect...` call.
    public var unconsumedEvents: [RecordedEvent<Value>] {
        lock.locked { storedEvents[consumed...].map(\.event) }
    }

    /// Checks that the next unconsumed events are exactly `expected`, and consumes them.
    public func expect(
        _ expected: [RecordedEvent<Value>],
        by areEquivalent: (Value, Value) -> Bool,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let actual: [RecordedEvent<Value>] = lock.locked {
            let end = min(storedEvents.count, consumed + expected.count)
            let slice = storedEvents[consumed..<end].map(\.event)
            consumed = end
            return slice
        }
        if !EventDiff.matches(expected, actual, by: areEquivalent) {
            reportFailure(
                EventDiff.describe(title: "Next events differ", expected: expected, actual: actual),
                fileID: fileID, filePath: filePath, line: line, column: column
            )
        }
    }

    /// Fails if any recorded event has not been consumed, then ends exhaustive checking.
    public func finish(
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        checkExhausted(fileID: fileID, filePath: filePath, line: line, column: column)
        lock.locked { finished = true }
    }

    private func checkExhausted(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
        let rest = unconsumedEvents
        guard !rest.isEmpty else { return }
        let list = rest.map { "  \($0)" }.joined(separator: "\n")
        reportFailure(
            "\(rest.count) recorded event(s) were not asserted:\n\(list)",
            fileID: fileID, filePath: filePath, line: line, column: column
        )
    }
}

extension Recorder where Value: Equatable {
    /// Checks that the values recorded so far are exactly `expected`.
    public func assertValues(
        _ expected: [Value],
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let actual = values
        if actual != expected {
            reportFailure(
                EventDiff.describe(
                    title: "Recorded values differ",
                    expected: expected.map { .value($0) }, actual: actual.map { .value($0) }),
                fileID: fileID, filePath: filePath, line: line, column: column
            )
        }
    }

    /// Checks that the events recorded so far are exactly `expected`.
    public func assertEvents(
        _ expected: [RecordedEvent<Value>],
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let actual = events
        if actual != expected {
            reportFailure(
                EventDiff.describe(title: "Recorded events differ", expected: expected, actual: actual),
                fileID: fileID, filePath: filePath, line: line, column: column
            )
        }
    }

    /// Checks that the next unconsumed events are the values `expected`, and consumes them.
    public func expect(
        _ expected: Value...,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        expect(
            expected.map { .value($0) }, by: ==,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension Recorder {
    /// Checks that the values recorded so far match `expected` under `areEquivalent`
    /// (for values that are not `Equatable`, such as tuples).
    public func assertValues(
        _ expected: [Value],
        by areEquivalent: (Value, Value) -> Bool,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let actual = values.map { RecordedEvent.value($0) }
        let wanted = expected.map { RecordedEvent.value($0) }
        if !EventDiff.matches(wanted, actual, by: areEquivalent) {
            reportFailure(
                EventDiff.describe(title: "Recorded values differ", expected: wanted, actual: actual),
                fileID: fileID, filePath: filePath, line: line, column: column
            )
        }
    }

    /// Checks that the next unconsumed event is the completion, and consumes it.
    public func expectCompleted(
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        expect(
            [.completed], by: { _, _ in false },
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Checks that every recorded event has been consumed.
    public func expectNoMoreEvents(
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        checkExhausted(fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension Signal {
    /// Records every value and the completion of this signal from now on.
    ///
    /// A `scheduler` stamps each event with its virtual time. An `exhaustive` recorder
    /// fails at `finish()` (or when it is freed) if an event was recorded that no
    /// `expect...` call consumed.
    public func record(
        on scheduler: TestScheduler? = nil,
        exhaustive: Bool = false,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Recorder<Value> {
        Recorder.attached(
            scheduler: scheduler, exhaustive: exhaustive, origin: (fileID, filePath, line, column),
            values: { observe($0) }, completion: { observeCompleted($0) })
    }
}

extension Property {
    /// Records the current value, every change and the completion of this property.
    ///
    /// A `scheduler` stamps each event with its virtual time. An `exhaustive` recorder
    /// fails at `finish()` (or when it is freed) if an event was recorded that no
    /// `expect...` call consumed.
    public func record(
        on scheduler: TestScheduler? = nil,
        exhaustive: Bool = false,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Recorder<Value> {
        Recorder.attached(
            scheduler: scheduler, exhaustive: exhaustive, origin: (fileID, filePath, line, column),
            values: { observe($0) }, completion: { signal.observeCompleted($0) })
    }
}

/// Two subscriptions disposed together.
// Safe to share: both fields are immutable references to Sendable disposables.
private final class Disposables: Disposable, Sendable {
    private let first: Disposable
    private let second: Disposable

    init(_ first: Disposable, _ second: Disposable) {
        self.first = first
        self.second = second
    }

    var isDisposed: Bool { first.isDisposed && second.isDisposed }

    func dispose() {
        first.dispose()
        second.dispose()
    }
}
