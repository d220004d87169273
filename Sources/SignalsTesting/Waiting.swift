import Foundation
import Signals

// Awaiting values in tests of asynchronous work.
//
// Few names, each meaning the same on signals, properties and recorders: `first(where:)`
// (as `AsyncSequence` names it) for a value that satisfies a predicate, `values(count:)`
// (a count of what `values` holds or yields) for the first values, `completion()` for the
// end, and `next()`, on a signal only, for the next value. They count from where each
// type's values start: a signal's at the call, a property's at its current value, a
// recorder's at its first recorded event. A property has no `completion()`: it completes
// only when freed, which awaiting it would prevent.
//
// A wait is event-driven: the recorder checks each event as it is recorded and resumes the
// awaiting task; a Dispatch timer ends the wait at the timeout; cancelling the awaiting task
// ends it at once. There is no polling.

/// An awaited value or completion that did not come.
///
/// The helpers that await signals, properties and recorders (such as
/// ``Signals/Signal/first(where:timeout:isolation:fileID:filePath:line:column:)`` or
/// ``Recorder/values(count:timeout:isolation:fileID:filePath:line:column:)``) throw it after failing the test: when the timeout passes first, or when the completion
/// comes first, so the awaited value never can. Its description says what was awaited and
/// lists everything received.
public struct WaitError: Error, CustomStringConvertible {
    /// Why a wait ended without what it awaited.
    public enum Reason: Equatable, Sendable {
        /// It did not come within the timeout given here.
        case timedOut(after: Duration)
        /// The completion came first, so it never will.
        case completed
    }

    /// What was awaited, as the failure names it: "the next value of the signal".
    public let awaited: String
    /// Why it did not come.
    public let reason: Reason
    /// The events received while waiting, as `value(1)` or `completed` (for a recorder,
    /// every event it recorded).
    public let received: [String]
    /// What may explain the wait's failure, if anything.
    let hint: String?

    /// "Timed out after 5.0 seconds awaiting ...", then every event received, one a line.
    public var description: String {
        let summary: String
        switch reason {
        case .timedOut(let timeout): summary = "Timed out after \(timeout) awaiting \(awaited)"
        case .completed: summary = "Completed before \(awaited) came"
        }
        var lines = [summary + (received.isEmpty ? "; received nothing" : "; received \(received.count) event(s):")]
        lines += received.map { "  \($0)" }
        if let hint { lines.append(hint) }
        return lines.joined(separator: "\n")
    }
}

/// One wait for what a recorder records: checks each event once, in order, and resumes
/// the awaiting task once, with the first of its endings.
// Safe to share: every mutable field is touched only under `lock`.
final class Wait<Value: Sendable, Output: Sendable>: @unchecked Sendable {
    enum Ending: Sendable {
        case met(Output)
        case completed
        case timedOut
        case cancelled
    }

    private let lock = NSLock()
    private let recorder: Recorder<Value>
    /// Gets each event and the values so far (that event's included); returns the result
    /// once the wait is met.
    private let decide: @Sendable (RecordedEvent<Value>, [Value]) -> Output?
    private var seen: [RecordedEvent<Value>] = []
    private var values: [Value] = []
    private var ending: Ending?
    private var continuation: CheckedContinuation<Ending, Never>?

    init(recorder: Recorder<Value>, decide: @escaping @Sendable (RecordedEvent<Value>, [Value]) -> Output?) {
        self.recorder = recorder
        self.decide = decide
    }

    /// How the wait ended, if it has.
    var result: Ending? { lock.locked { ending } }

    /// The events checked so far.
    var received: [RecordedEvent<Value>] { lock.locked { seen } }

    /// Checks the events recorded since the last call. Called by the awaiting task once it
    /// listens, then after every recorded event; the lock keeps the checks in order.
    func catchUp() {
        let resumption: (CheckedContinuation<Ending, Never>, Ending)? = lock.locked {
            guard ending == nil else { return nil }
            for event in recorder.events(from: seen.count) {
                seen.append(event)
                if case .value(let value) = event { values.append(value) }
                if let output = decide(event, values) {
                    ending = .met(output)
                } else if case .completed = event {
                    ending = .completed
                }
                if ending != nil { break }
            }
            return takeResumption()
        }
        if let (continuation, ending) = resumption { continuation.resume(returning: ending) }
    }

    /// Ends the wait with `ending` unless it has ended already.
    func end(_ ending: Ending) {
        let resumption: (CheckedContinuation<Ending, Never>, Ending)? = lock.locked {
            guard self.ending == nil else { return nil }
            self.ending = ending
            return takeResumption()
        }
        if let (continuation, ending) = resumption { continuation.resume(returning: ending) }
    }

    /// Resumes `continuation` when the wait ends (at once if it has).
    func suspend(_ continuation: CheckedContinuation<Ending, Never>) {
        let ended: Ending? = lock.locked {
            if self.ending == nil { self.continuation = continuation }
            return self.ending
        }
        if let ended { continuation.resume(returning: ended) }
    }

    /// The continuation to resume and how, once the wait has ended; called under `lock`.
    private func takeResumption() -> (CheckedContinuation<Ending, Never>, Ending)? {
        guard let ending, let continuation else { return nil }
        self.continuation = nil
        return (continuation, ending)
    }
}

/// `duration` for a Dispatch deadline: whole nanoseconds, none below zero, and at most
/// a century, so the deadline cannot overflow.
private func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
    let century = 100 * 365 * 24 * 3600 * 1_000_000_000.0
    return .nanoseconds(Int(min(max(duration / .nanoseconds(1), 0), century)))
}

/// Where a helper was called, for its failure.
typealias CallSite = (fileID: String, filePath: StaticString, line: UInt, column: UInt)

extension Recorder {
    /// Awaits the result `decide` returns for an event, checking every event recorded,
    /// earlier ones first; fails the test and throws a ``WaitError`` when the completion
    /// or the timeout comes first, and throws `CancellationError` when the awaiting task
    /// is cancelled.
    ///
    /// Everything up to the first suspension runs in the caller's isolation, so anything
    /// the caller's actor does once it awaits comes after the recorder listens.
    func wait<Output: Sendable>(
        for awaited: String,
        hint: String? = nil,
        timeout: Duration,
        isolation: isolated (any Actor)?,
        at site: CallSite,
        until decide: @escaping @Sendable (RecordedEvent<Value>, [Value]) -> Output?
    ) async throws -> Output {
        let wait = Wait(recorder: self, decide: decide)
        let key = addListener { wait.catchUp() }
        defer { removeListener(key) }
        wait.catchUp()
        let ending: Wait<Value, Output>.Ending
        if let result = wait.result {
            ending = result
        } else {
            // A Dispatch timer, not a sleeping task: nothing in Sources sleeps (ArchitectureTests).
            let timer = DispatchWorkItem { wait.end(.timedOut) }
            DispatchQueue.global().asyncAfter(deadline: .now() + dispatchInterval(timeout), execute: timer)
            defer { timer.cancel() }
            ending = await withTaskCancellationHandler(
                operation: { await withCheckedContinuation(isolation: isolation) { wait.suspend($0) } },
                onCancel: { wait.end(.cancelled) },
                isolation: isolation)
        }
        let reason: WaitError.Reason
        switch ending {
        case .met(let output): return output
        case .cancelled: throw CancellationError()
        case .timedOut: reason = .timedOut(after: timeout)
        case .completed: reason = .completed
        }
        let received = wait.received
        let error = WaitError(
            awaited: awaited, reason: reason, received: received.map(\.description),
            hint: received.isEmpty && reason != .completed ? hint : nil)
        reportFailure(
            error.description, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
        throw error
    }
}

// MARK: - Recorder

extension Recorder {
    /// The first recorded value that satisfies `predicate`, awaited if the recorder has
    /// not recorded it yet.
    ///
    /// Values recorded before the call count: a value sent before the await began is
    /// found at once. This is the way to await a value a signal may send before the test
    /// reaches its `await`: record the signal first. The rules all waits share (timeout,
    /// failure, isolation) are in <doc:HowWaitsWork>.
    ///
    /// ```swift
    /// let pages = loader.pages.record()
    /// loader.load()                    // may send before the next line runs
    /// let page = try await pages.first { $0.number == 1 }
    /// ```
    ///
    /// `predicate` runs once per value, in order, on the thread that records it (or the
    /// caller's, for values recorded before the call); `timeout` is thirty seconds unless
    /// given.
    ///
    /// - Returns: The first such value.
    /// - Throws: ``WaitError`` after failing the test, when the timeout passes or the
    ///   completion is recorded before such a value; `CancellationError` when the
    ///   awaiting task is cancelled.
    @discardableResult
    public func first(
        where predicate: @escaping @Sendable (Value) -> Bool,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> Value {
        try await wait(
            for: "a recorded value that satisfies the predicate", timeout: timeout, isolation: isolation,
            at: (fileID, filePath, line, column)
        ) { event, _ in
            if case .value(let value) = event, predicate(value) { return value }
            return nil
        }
    }

    /// The first `count` values recorded, awaited until the recorder has recorded them.
    ///
    /// Named after ``values``, of which it is the first `count`: values recorded before
    /// the call count, and the result is the first `count` even if more were recorded. It
    /// fails and throws like ``first(where:timeout:isolation:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// let progress = download.progress.record()
    /// download.start()
    /// #expect(try await progress.values(count: 3) == [0, 0.5, 1])
    /// ```
    public func values(
        count: Int,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> [Value] {
        precondition(count >= 0, "values(count:) needs a count of zero or more")
        guard count > 0 else { return [] }
        return try await wait(
            for: count == 1 ? "1 recorded value" : "\(count) recorded values", timeout: timeout,
            isolation: isolation, at: (fileID, filePath, line, column)
        ) { _, values in
            values.count >= count ? Array(values.prefix(count)) : nil
        }
    }

    /// Awaits the recorded completion.
    ///
    /// Returns at once if the completion has been recorded. Read ``values`` afterwards for
    /// what came before it.
    ///
    /// - Throws: ``WaitError`` after failing the test with what was recorded, when the
    ///   timeout passes first; `CancellationError` when the awaiting task is cancelled.
    public func completion(
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws {
        try await wait(
            for: "the recorded completion", timeout: timeout, isolation: isolation, at: (fileID, filePath, line, column)
        ) { event, _ in
            if case .completed = event { return () }
            return nil
        }
    }
}

// MARK: - Signal

/// Said when a signal's wait times out having received nothing.
private let signalHint =
    "A signal delivers only what is sent once the wait observes it: to count a value sent "
    + "before the await, record() the signal first and await the recorder."

extension Signal {
    /// The next value the signal sends, awaited.
    ///
    /// The wait observes the signal when called, in the caller's isolation, before it
    /// suspends: a value sent before the call is not seen, one sent once the caller
    /// awaits is. To await a value that may be sent before the `await` is reached, record
    /// the signal first and use the recorder's
    /// ``Recorder/first(where:timeout:isolation:fileID:filePath:line:column:)``. The rules
    /// all waits share are in <doc:HowWaitsWork>.
    ///
    /// ```swift
    /// let results = queries.map { "\($0) by the river" }
    /// Task { @MainActor in query.send("loft") }   // runs once the test awaits
    /// #expect(try await results.next() == "loft by the river")
    /// ```
    ///
    /// `timeout` is thirty seconds unless given.
    ///
    /// - Returns: The value.
    /// - Throws: ``WaitError`` after failing the test with what was received, when the
    ///   timeout passes or the signal completes first; `CancellationError` when the
    ///   awaiting task is cancelled.
    public func next(
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> Value {
        let recorder = record()
        defer { recorder.stop() }
        return try await recorder.wait(
            for: "the next value of the signal", hint: signalHint, timeout: timeout, isolation: isolation,
            at: (fileID, filePath, line, column)
        ) { event, _ in
            if case .value(let value) = event { return value }
            return nil
        }
    }

    /// The first value the signal sends from now on that satisfies `predicate`, awaited.
    ///
    /// What the signal sent before the call is not seen (see
    /// ``next(timeout:isolation:fileID:filePath:line:column:)``); `predicate` runs once per
    /// value, on the thread that sends it. It fails and throws like `next()`.
    ///
    /// ```swift
    /// let loaded = try await states.first { $0 == .loaded }
    /// ```
    @discardableResult
    public func first(
        where predicate: @escaping @Sendable (Value) -> Bool,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> Value {
        let recorder = record()
        defer { recorder.stop() }
        return try await recorder.wait(
            for: "a value of the signal that satisfies the predicate", hint: signalHint, timeout: timeout,
            isolation: isolation, at: (fileID, filePath, line, column)
        ) { event, _ in
            if case .value(let value) = event, predicate(value) { return value }
            return nil
        }
    }

    /// The next `count` values the signal sends, awaited.
    ///
    /// What the signal sent before the call is not seen (see
    /// ``next(timeout:isolation:fileID:filePath:line:column:)``). It fails and throws like
    /// `next()`.
    public func values(
        count: Int,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> [Value] {
        precondition(count >= 0, "values(count:) needs a count of zero or more")
        guard count > 0 else { return [] }
        let recorder = record()
        defer { recorder.stop() }
        return try await recorder.wait(
            for: count == 1 ? "the next value of the signal" : "the next \(count) values of the signal",
            hint: signalHint, timeout: timeout, isolation: isolation, at: (fileID, filePath, line, column)
        ) { _, values in
            values.count >= count ? Array(values.prefix(count)) : nil
        }
    }

    /// Awaits the signal's completion.
    ///
    /// Returns at once if the signal has completed. Values sent meanwhile are not kept:
    /// record the signal to read them.
    ///
    /// - Throws: ``WaitError`` after failing the test with what was received, when the
    ///   timeout passes first; `CancellationError` when the awaiting task is cancelled.
    public func completion(
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws {
        let recorder = record()
        defer { recorder.stop() }
        try await recorder.wait(
            for: "the completion of the signal", timeout: timeout, isolation: isolation,
            at: (fileID, filePath, line, column)
        ) { event, _ in
            if case .completed = event { return () }
            return nil
        }
    }
}

// MARK: - Property

extension Property {
    /// The first value of the property that satisfies `predicate`, its current value included.
    ///
    /// Returns at once, without suspending, when the current value does.
    ///
    /// ```swift
    /// viewModel.load()
    /// try await viewModel.isLoading.first { $0 == false }
    /// ```
    ///
    /// The wait begins in the caller's `isolation`: a change the caller's actor makes once
    /// it awaits is seen (see <doc:HowWaitsWork>). `predicate` runs once per value, in
    /// order: on the caller's thread for the current value, then on the thread that
    /// changes the property. `timeout` is thirty seconds unless given.
    ///
    /// - Returns: The first such value.
    /// - Throws: ``WaitError`` after failing the test with every value received, when the
    ///   timeout passes or the property completes (a `MutableProperty` freed, a constant
    ///   property at once) before such a value; `CancellationError` when the awaiting
    ///   task is cancelled.
    @discardableResult
    public func first(
        where predicate: @escaping @Sendable (Value) -> Bool,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> Value {
        let recorder = record()
        defer { recorder.stop() }
        return try await recorder.wait(
            for: "a value of the property that satisfies the predicate", timeout: timeout, isolation: isolation,
            at: (fileID, filePath, line, column)
        ) { event, _ in
            if case .value(let value) = event, predicate(value) { return value }
            return nil
        }
    }

    /// The property's current value, then its next changes: `count` values in all, awaited.
    ///
    /// It fails and throws like ``first(where:timeout:isolation:fileID:filePath:line:column:)``.
    ///
    /// There is no `completion()` for a property: a `MutableProperty` completes only
    /// when it is freed, which awaiting it would prevent. Record it, let it go, and await
    /// the recorder's ``Recorder/completion(timeout:isolation:fileID:filePath:line:column:)``.
    ///
    /// ```swift
    /// search.apply("loft")
    /// #expect(try await search.isExecuting.values(count: 2) == [true, false])
    /// ```
    public func values(
        count: Int,
        timeout: Duration = .seconds(30),
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async throws -> [Value] {
        precondition(count >= 0, "values(count:) needs a count of zero or more")
        guard count > 0 else { return [] }
        let recorder = record()
        defer { recorder.stop() }
        return try await recorder.wait(
            for: count == 1
                ? "the current value of the property" : "\(count) values of the property (its current value first)",
            timeout: timeout, isolation: isolation, at: (fileID, filePath, line, column)
        ) { _, values in
            values.count >= count ? Array(values.prefix(count)) : nil
        }
    }
}
