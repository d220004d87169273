import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

@Suite struct ActionTests {
    /// Completes runs on another thread. A queue of its own (unlike the global concurrent
    /// queues, which the test runner's threads may occupy) always gets a thread at once.
    static let worker = DispatchQueue(label: "action-tests.worker")

    struct Failure: Error, Equatable {
        let code: Int
    }

    /// Collects the completion callbacks of an action's runs so a test can finish them later.
    final class PendingRuns<Input: Sendable, Output: Sendable>: Sendable {
        typealias Completion = @Sendable (Result<Output, any Error>) -> Void
        private let runs = Locked<[(input: Input, done: Completion)]>([])

        func add(_ input: Input, _ done: @escaping Completion) {
            runs.append((input, done))
        }

        var count: Int { runs.value.count }
        var inputs: [Input] { runs.value.map(\.input) }
        func done(_ index: Int) -> Completion {
            runs.value[index].done
        }
    }

    @Test func synchronousSuccessEmitsValueAndTogglesExecuting() {
        let action = Action<Int, String> { input, done in done(.success("got \(input)")) }
        let values = action.values.record()
        let executing = action.isExecuting.record()
        #expect(action.apply(1))
        values.assertValues(["got 1"])
        executing.assertValues([false, true, false])
        #expect(action.isExecuting.value == false)
        #expect(action.isEnabled.value == true)
    }

    @Test func failureGoesToErrorsNotValues() {
        let action = Action<Int, String> { input, done in done(.failure(Failure(code: input))) }
        let values = action.values.record()
        let errors = action.errors.record()
        #expect(action.apply(7))
        values.assertValues([])
        #expect(errors.values.count == 1)
        #expect((errors.values.first as? Failure) == Failure(code: 7))
        #expect(action.isExecuting.value == false)
    }

    @Test func isExecutingWhileRunIsInProgress() {
        let runs = PendingRuns<Int, Int>()
        let action = Action<Int, Int> { input, done in runs.add(input, done) }
        let executing = action.isExecuting.record()
        let enabled = action.isEnabled.record()
        #expect(action.apply(1))
        #expect(action.isExecuting.value)
        #expect(!action.isEnabled.value)
        runs.done(0)(.success(10))
        #expect(!action.isExecuting.value)
        #expect(action.isEnabled.value)
        executing.assertValues([false, true, false])
        enabled.assertValues([true, false, true])
    }

    @Test func applyReturnsFalseWhileAlreadyExecuting() {
        let runs = PendingRuns<Int, Int>()
        let action = Action<Int, Int> { input, done in runs.add(input, done) }
        let values = action.values.record()
        #expect(action.apply(1))
        #expect(!action.apply(2))
        #expect(!action.apply(3))
        #expect(runs.inputs == [1], "a refused apply must not run the work")
        runs.done(0)(.success(100))
        values.assertValues([100])
        #expect(action.apply(4))
        #expect(runs.inputs == [1, 4])
        runs.done(1)(.success(400))
        values.assertValues([100, 400])
    }

    @Test func applyReturnsFalseWhileDisabled() {
        let allowed = MutableProperty(false)
        let calls = Locked(0)
        let action = Action<Int, Int>(enabledIf: allowed) { input, done in
            calls.increment()
            done(.success(input))
        }
        let values = action.values.record()
        let enabled = action.isEnabled.record()
        #expect(!action.isEnabled.value)
        #expect(!action.apply(1))
        #expect(calls.value == 0)
        #expect(!action.isExecuting.value)
        allowed.value = true
        #expect(action.isEnabled.value)
        #expect(action.apply(2))
        allowed.value = false
        #expect(!action.apply(3))
        #expect(calls.value == 1)
        values.assertValues([2])
        // One emission per change of `enabledIf`, plus the run (true -> false -> true).
        enabled.assertValues([false, true, false, true, false])
    }

    @Test func disablingWhileExecutingKeepsRunGoing() {
        let allowed = MutableProperty(true)
        let runs = PendingRuns<Int, Int>()
        let action = Action<Int, Int>(enabledIf: allowed) { input, done in runs.add(input, done) }
        let values = action.values.record()
        #expect(action.apply(1))
        allowed.value = false
        #expect(action.isExecuting.value)
        runs.done(0)(.success(1))
        values.assertValues([1])
        #expect(!action.isExecuting.value)
        #expect(!action.isEnabled.value)
        #expect(!action.apply(2))
    }

    @Test func completionCalledTwiceIsIgnored() {
        let action = Action<Int, Int> { input, done in
            done(.success(input))
            done(.success(input + 1))
            done(.failure(Failure(code: 0)))
        }
        let values = action.values.record()
        let errors = action.errors.record()
        let executing = action.isExecuting.record()
        #expect(action.apply(5))
        values.assertValues([5])
        #expect(errors.values.isEmpty)
        executing.assertValues([false, true, false])
    }

    @Test func lateCompletionFromEarlierRunDoesNotAffectNextRun() {
        let runs = PendingRuns<Int, Int>()
        let action = Action<Int, Int> { input, done in runs.add(input, done) }
        let values = action.values.record()
        #expect(action.apply(1))
        runs.done(0)(.success(1))
        #expect(action.apply(2))
        // A stale second call of run 1's completion must not end run 2.
        runs.done(0)(.success(999))
        #expect(action.isExecuting.value)
        #expect(!action.apply(3))
        runs.done(1)(.success(2))
        values.assertValues([1, 2])
    }

    @Test func valueIsSentBeforeExecutingTurnsFalse() {
        let action = Action<Int, Int> { input, done in done(.success(input)) }
        let executingWhenValueArrived = Locked<[Bool]>([])
        action.values.observe { _ in executingWhenValueArrived.append(action.isExecuting.value) }
        action.apply(1)
        #expect(executingWhenValueArrived.value == [true])
        #expect(!action.isExecuting.value)
    }

    @Test func asyncCompletionFromAnotherThread() async {
        let action = Action<Int, Int> { input, done in
            ActionTests.worker.asyncAfter(deadline: .now() + .milliseconds(10)) {
                done(.success(input * 2))
            }
        }
        let executingChanges = action.isExecuting.signal.values
        let valueStream = action.values.values
        #expect(action.apply(21))
        #expect(action.isExecuting.value)
        let value = await firstValue(of: valueStream, timeout: .seconds(30))
        #expect(value == 42)
        // `isExecuting` turns false right after the value.
        let changes = await firstValues(of: executingChanges, count: 2, timeout: .seconds(30))
        #expect(changes == [true, false])
        #expect(!action.isExecuting.value)
        #expect(action.isEnabled.value)
        #expect(action.apply(1))
    }

    @Test func asyncFailureFromAnotherThread() {
        let action = Action<Void, Int> { _, done in
            ActionTests.worker.async { done(.failure(Failure(code: 3))) }
        }
        let received = DispatchSemaphore(value: 0)
        let codes = Locked<[Int]>([])
        let subscription = action.errors.observe { error in
            codes.append((error as? Failure)?.code ?? -1)
            received.signal()
        }
        #expect(action.apply(()))
        #expect(received.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(codes.value == [3])
        subscription.dispose()
    }

    /// A run that finishes on another thread while `apply` is called again must not leave
    /// `isExecuting` false for the new run: the completion turns `isExecuting` false
    /// before it lets a new run start.
    @Test func isExecutingStaysTrueWhenNextRunStartsDuringCompletionOnAnotherThread() {
        var wrong = 0
        for _ in 0..<2_000 {
            let runs = PendingRuns<Int, Int>()
            let action = Action<Int, Int> { input, done in runs.add(input, done) }
            #expect(action.apply(0))
            let finishFirst = runs.done(0)
            let finished = DispatchSemaphore(value: 0)
            ActionTests.worker.async {
                finishFirst(.success(0))
                finished.signal()
            }
            while !action.apply(1) {}
            finished.wait()
            // Run 2 has started and its completion is held: it is executing.
            if !action.isExecuting.value || action.isEnabled.value { wrong += 1 }
            if wrong > 0 { break }
        }
        #expect(wrong == 0, "isExecuting false (or isEnabled true) while a run is in progress")
    }

    @Test func concurrentApplyStartsExactlyOneRun() {
        let runs = PendingRuns<Int, Int>()
        let action = Action<Int, Int> { input, done in runs.add(input, done) }
        let accepted = Counter()
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            if action.apply(index) { accepted.increment() }
        }
        #expect(accepted.value == 1)
        #expect(runs.count == 1)
        runs.done(0)(.success(0))
        #expect(!action.isExecuting.value)
    }

    @Test(.tags(.regression)) func applyFromAnObserverThatSeesTheActionEnabledStarts() {
        let finish = Locked<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        let action = Action<Int, Int> { _, done in finish.value = done }
        let restarted = Locked(false)
        let retried = Locked(false)
        let observation = action.isEnabled.signal.observe { enabled in
            if enabled && !retried.testAndSet() {
                restarted.value = action.apply(2)
            }
        }
        #expect(action.apply(1))
        finish.value?(.success(1))
        #expect(restarted.value)
        #expect(action.isExecuting.value)
        observation.dispose()
    }
}
