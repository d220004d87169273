import Signals
import SignalsTesting
import Testing
import XCTest

/// The timeout of waits for work done in a detached task. The cooperative pool runs such
/// a task, and while the whole package's tests run on a two-core machine other tests can
/// keep that pool busy: under the thread sanitizer, with a build loading the machine,
/// hundreds of test tasks queued ahead of one detached task for more than 30 seconds. A
/// wait returns as soon as the value comes, so a long timeout costs a passing test nothing.
private let poolTimeout: Duration = .seconds(300)

/// Awaiting signals, properties and recorders (`next()`, `first(where:)`, `values(count:)`,
/// `completion()`), from `@MainActor` tests as issue 20's user wrote them.
@Suite struct WaitingTests {
    // MARK: Signal

    @Test @MainActor func nextGetsAValueSentOnTheMainActorOnceTheAwaitBegins() async throws {
        let (signal, input) = Signal<Int>.pipe()
        // Queued on the main actor, so it runs only once the test suspends in `next()`,
        // which observes the signal before suspending.
        Task { @MainActor in input.send(5) }
        #expect(try await signal.next() == 5)
    }

    @Test @MainActor func nextGetsAValueSentFromADetachedTask() async throws {
        // The work starts when the wait observes the signal, and sends from a detached task.
        let results = Signal<String> { input in
            let task = Task.detached { input.send("loft") }
            return AnyDisposable { task.cancel() }
        }
        #expect(try await results.next(timeout: poolTimeout) == "loft")
    }

    @Test @MainActor func firstWhereSkipsTheValuesThatDoNotSatisfyThePredicate() async throws {
        let (signal, input) = Signal<Int>.pipe()
        Task { @MainActor in
            for value in 1...5 { input.send(value) }
        }
        #expect(try await signal.first { $0 > 3 } == 4)
    }

    @Test @MainActor func valuesCountGetsTheNextValuesOfASignal() async throws {
        let (signal, input) = Signal<Int>.pipe()
        input.send(0) // before the wait: not seen
        Task { @MainActor in
            for value in 1...5 { input.send(value) }
        }
        #expect(try await signal.values(count: 3) == [1, 2, 3])
        #expect(try await signal.values(count: 0) == [])
    }

    @Test @MainActor func completionReturnsWhenTheSignalCompletesAndAtOnceIfItHas() async throws {
        let (signal, input) = Signal<Int>.pipe()
        Task.detached {
            input.send(1)
            input.sendCompleted()
        }
        try await signal.completion(timeout: poolTimeout)
        try await signal.completion(timeout: .zero)
    }

    @Test @MainActor func aSignalThatCompletesFirstFailsTheWaitAtOnce() async throws {
        let (signal, input) = Signal<Int>.pipe()
        Task { @MainActor in
            input.send(1)
            input.sendCompleted()
        }
        let thrown = Locked<WaitError?>(nil)
        try await withKnownIssue {
            do {
                // A long timeout: the completion, not the timeout, ends the wait.
                _ = try await signal.first(where: { $0 > 1 }, timeout: .seconds(60))
            } catch let error as WaitError {
                thrown.value = error
                throw error
            }
        } matching: { issue in
            String(describing: issue).contains(
                "Completed before a value of the signal that satisfies the predicate came; received 2 event(s):")
        }
        #expect(thrown.value?.reason == .completed)
        #expect(thrown.value?.received == ["value(1)", "completed"])
    }

    @Test @MainActor func aSignalsTimeoutFailsTheTestWithWhatWasAwaitedAndReceived() async throws {
        // The values come as the wait starts observing (not from a task that a loaded
        // machine may run only after the timeout), and the input is kept so that the
        // signal does not complete: the wait can only time out, having received both.
        let kept = Locked<Signal<Int>.Input?>(nil)
        let signal = Signal<Int> { input in
            kept.value = input
            input.send(1)
            input.send(2)
            return AnyDisposable {}
        }
        let issues = Locked<[Issue]>([])
        let thrown = Locked<WaitError?>(nil)
        let line = #line + 3
        try await withKnownIssue {
            do {
                _ = try await signal.first(where: { $0 > 5 }, timeout: .milliseconds(100))
            } catch let error as WaitError {
                thrown.value = error
                throw error
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        let expected = """
            Timed out after 0.1 seconds awaiting a value of the signal that satisfies the predicate; \
            received 2 event(s):
              value(1)
              value(2)
            """
        #expect(thrown.value?.description == expected)
        #expect(thrown.value?.reason == .timedOut(after: .milliseconds(100)))
        // The failure reported where the test awaited, then the error thrown out of it.
        let recorded = issues.value
        #expect(recorded.count == 2)
        #expect(recorded.first?.comments.map(\.rawValue) == [expected])
        #expect(recorded.first?.sourceLocation?.line == line)
        #expect(recorded.last?.error is WaitError)
    }

    @Test @MainActor func aSignalsTimeoutWithNothingReceivedSaysWhy() async throws {
        let (signal, input) = Signal<Int>.pipe()
        input.send(1) // before the wait: lost, the mistake the hint explains
        try await withKnownIssue {
            _ = try await signal.next(timeout: .milliseconds(50))
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("Timed out after 0.05 seconds awaiting the next value of the signal; received nothing")
                && text.contains("record() the signal first and await the recorder")
        }
    }

    @Test @MainActor func theWaitStopsObservingWhenItEnds() async throws {
        // Work that stops once its signal is released and nobody observes it any more.
        let kept = Locked<Signal<Int>.Input?>(nil)
        let stopped = Locked(false)
        var results: Signal<Int>? = Signal { input in
            kept.value = input // so the signal does not complete
            Task { @MainActor in input.send(1) }
            return AnyDisposable { stopped.value = true }
        }
        #expect(try await results?.next() == 1)
        #expect(!stopped.value)
        results = nil
        #expect(stopped.value)
    }

    @Test func awaitingFromANonisolatedTest() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record()
        Task.detached { input.send(1) }
        #expect(try await recorder.first(where: { $0 == 1 }, timeout: poolTimeout) == 1)
    }

    // MARK: Property

    @Test @MainActor func firstWhereOfAPropertyReturnsAtOnceWhenTheCurrentValueSatisfiesIt() async throws {
        let count = MutableProperty(3)
        // A zero timeout: it would time out if it waited at all.
        #expect(try await count.first(where: { $0 == 3 }, timeout: .zero) == 3)
    }

    @Test @MainActor func firstWhereOfAPropertyGetsAChangeMadeOnTheMainActorOnceTheAwaitBegins() async throws {
        // Issue 20: `property.values.first { … }` in a `@MainActor` test.
        let count = MutableProperty(0)
        Task { @MainActor in
            for value in 1...5 { count.value = value }
        }
        try await count.first { $0 == 3 }
        #expect(count.value == 5)
    }

    @Test @MainActor func firstWhereOfAPropertyGetsAChangeMadeFromADetachedTask() async throws {
        let progress = MutableProperty(0)
        Task.detached {
            for value in 1...50 { progress.value = value }
        }
        #expect(try await progress.map { $0 * 2 }.first(where: { $0 == 100 }, timeout: poolTimeout) == 100)
    }

    @Test @MainActor func valuesCountOfAPropertyStartsWithItsCurrentValue() async throws {
        let name = MutableProperty("a")
        Task { @MainActor in
            name.value = "b"
            name.value = "c"
        }
        #expect(try await name.values(count: 1) == ["a"])
        #expect(try await name.values(count: 3) == ["a", "b", "c"])
    }

    @Test @MainActor func aPropertysTimeoutListsTheValuesItHad() async throws {
        let count = MutableProperty(1)
        try await withKnownIssue {
            try await count.first(where: { $0 == 3 }, timeout: .milliseconds(50))
        } matching: { issue in
            String(describing: issue).contains(
                "Timed out after 0.05 seconds awaiting a value of the property that satisfies the predicate; "
                    + "received 1 event(s):\n  value(1)")
        }
    }

    @Test @MainActor func aConstantPropertyThatDoesNotSatisfyThePredicateFailsAtOnce() async throws {
        let constant = Property(value: 2)
        try await withKnownIssue {
            try await constant.first(where: { $0 == 3 }, timeout: .seconds(60))
        } matching: { issue in
            String(describing: issue).contains("Completed before a value of the property")
        }
    }

    // MARK: Recorder

    @Test @MainActor func aValueRecordedBeforeTheAwaitCounts() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record()
        input.send(1)
        input.send(2)
        #expect(try await recorder.first(where: { $0 == 2 }, timeout: .zero) == 2)
        #expect(try await recorder.values(count: 2, timeout: .zero) == [1, 2])
        #expect(try await recorder.values(count: 1, timeout: .zero) == [1])
    }

    @Test @MainActor func aRecorderGetsValuesSentFromADetachedTask() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record()
        Task.detached {
            for value in 1...100 { input.send(value) }
            input.sendCompleted()
        }
        #expect(try await recorder.values(count: 100, timeout: poolTimeout) == Array(1...100))
        try await recorder.completion(timeout: poolTimeout)
        #expect(recorder.isCompleted)
    }

    @Test @MainActor func aRecorderGetsTheCompletionOfAFreedProperty() async throws {
        var property: MutableProperty<Int>? = MutableProperty(1)
        let recorder = property?.record()
        property?.value = 2
        property = nil
        try await recorder?.completion(timeout: .zero)
        recorder?.assertEvents([.value(1), .value(2), .completed])
    }

    @Test @MainActor func aRecordersTimeoutListsEverythingItRecorded() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record()
        input.send(1)
        input.send(2)
        try await withKnownIssue {
            _ = try await recorder.values(count: 3, timeout: .milliseconds(50))
        } matching: { issue in
            String(describing: issue).contains(
                "Timed out after 0.05 seconds awaiting 3 recorded values; received 2 event(s):\n  value(1)\n  value(2)")
        }
    }

    // MARK: Cancellation

    @Test @MainActor func cancellingTheAwaitingTaskEndsTheWait() async throws {
        let kept = Locked<Signal<Int>.Input?>(nil)
        let observed = MutableProperty(false)
        let signal = Signal<Int> { input in
            kept.value = input // so the signal does not complete
            observed.value = true
            return AnyDisposable {}
        }
        let waiting = Task { try await signal.next(timeout: .seconds(60)) }
        try await observed.first { $0 }
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test @MainActor func aWaitInACancelledTaskEndsAtOnce() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record()
        // The task starts on the main actor once the test suspends, already cancelled.
        let waiting = Task { try await recorder.first(where: { $0 > 0 }, timeout: .seconds(60)) }
        waiting.cancel()
        let result = await waiting.result
        #expect(throws: CancellationError.self) { try result.get() }
        withExtendedLifetime(input) {}
    }
}

/// The same helpers from XCTest.
final class WaitingXCTests: XCTestCase {
    @MainActor func testAwaitingFromXCTest() async throws {
        let (signal, input) = Signal<Int>.pipe()
        let property = MutableProperty(0)
        Task { @MainActor in
            input.send(1)
            property.value = 2
        }
        let next = try await signal.next()
        XCTAssertEqual(next, 1)
        let value = try await property.first { $0 == 2 }
        XCTAssertEqual(value, 2)
    }
}
