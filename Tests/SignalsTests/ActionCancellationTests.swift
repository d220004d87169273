import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

/// A result that tells when it is let go of, to prove a late result was dropped.
final class LateResult: Sendable {
    let value: Int
    private let onRelease: @Sendable () -> Void

    init(_ value: Int, onRelease: @escaping @Sendable () -> Void) {
        self.value = value
        self.onRelease = onRelease
    }

    deinit { onRelease() }
}

/// What became of each round of a cancel race: its token freed (its work never started, or
/// its task ended), or its task waiting in its work, cancelled or not.
final class RoundOutcomes: Sendable {
    private let state = Locked<(settled: Set<Int>, gates: [Int: CancellationGate], waiting: Set<Int>)>(([], [:], []))
    private let settledRounds = EventLog<Int>()

    /// The rounds whose task waits in its work and was never cancelled.
    var leftRunning: [Int] {
        let state = state.value
        return state.waiting.filter { state.gates[$0]?.isCancelled == false }.sorted()
    }

    /// The gate round `round`'s work waits at, which tells it when it starts waiting.
    func gate(for round: Int) -> CancellationGate {
        let gate = CancellationGate { [self] in
            state.withLock { _ = $0.waiting.insert(round) }
            settle(round)
        }
        state.withLock { $0.gates[round] = gate }
        return gate
    }

    func settle(_ round: Int) {
        if state.withLock({ $0.settled.insert(round).inserted }) { settledRounds.append(round) }
    }

    /// Returns once each of `rounds` rounds has been freed or is waiting.
    func waitUntilEveryRoundIsSettled(_ rounds: Int) async {
        await settledRounds.wait(forCount: rounds)
    }
}

/// `Action` with async work, `apply()` for `Void` input, and `cancel()`.
@Suite(.timeLimit(.minutes(1))) struct ActionCancellationTests {
    struct Failure: Error, Equatable {
        let code: Int
    }

    // MARK: apply() and async work

    @Test func applyWithoutAnArgumentRunsAVoidAction() {
        let action = Action<Void, Int> { _, done in done(.success(42)) }
        let values = action.values.record()
        #expect(action.apply())
        values.assertValues([42])
        #expect(!action.isExecuting.value)
    }

    @Test func anAsyncActionSendsItsResultThenStopsExecuting() async {
        let action = Action<Int, Int> { input in
            await Task.yield()
            return input * 2
        }
        let events = EventLog<String>()
        let values = action.values.observe { events.append("value \($0)") }
        let executing = action.isExecuting.signal.observe { events.append("executing \($0)") }
        #expect(action.apply(21))
        await events.wait(forCount: 3)
        #expect(events.events == ["executing true", "value 42", "executing false"])
        values.dispose()
        executing.dispose()
    }

    @Test func anAsyncVoidActionIsAppliedWithoutAnArgument() async {
        let action = Action<Void, String> { "done" }
        let events = EventLog<String>()
        let values = action.values.observe { events.append($0) }
        #expect(action.apply())
        await events.wait(forCount: 1)
        #expect(events.events == ["done"])
        values.dispose()
    }

    @Test func anAsyncActionThatThrowsSendsTheErrorOnErrors() async {
        let action = Action<Int, Int> { input in throw Failure(code: input) }
        let errors = EventLog<Int>()
        let observation = action.errors.observe { errors.append(($0 as? Failure)?.code ?? -1) }
        #expect(action.apply(7))
        await errors.wait(forCount: 1)
        #expect(errors.events == [7])
        observation.dispose()
    }

    // MARK: cancel()

    @Test func cancellingAnAsyncRunCancelsItsTaskEndsTheRunAndDropsItsLateResult() async {
        let trace = EventLog<String>()
        let released = EventLog<Int>()
        let gate = CancellationGate()
        let action = Action<Int, LateResult> { input in
            trace.append("started")
            await gate.waitForCancellation()
            trace.append(Task.isCancelled ? "saw the cancellation" : "was not cancelled")
            // Returned after the cancellation: a late result, which must be dropped.
            return LateResult(input) { released.append(input) }
        }
        let values = action.values.record()
        let errors = action.errors.record()
        let executing = action.isExecuting.record()
        #expect(action.apply(1))
        await trace.wait(forCount: 1)
        #expect(action.isExecuting.value)

        action.cancel()
        // The run ends before `cancel()` returns.
        #expect(errors.values.count == 1)
        #expect(errors.values.first is CancellationError)
        #expect(!action.isExecuting.value)
        #expect(action.isEnabled.value)
        executing.assertValues([false, true, false])

        await trace.wait(forCount: 2)
        #expect(trace.events == ["started", "saw the cancellation"])
        // The late result reached the action and was let go of; had it been sent, the
        // recorder would hold it and this would never happen.
        await released.wait(forCount: 1)
        #expect(values.values.isEmpty)
        #expect(errors.values.count == 1)
        executing.assertValues([false, true, false])
    }

    @Test func cancellingACallbackRunEndsItAtOnceAndDropsItsLateResult() {
        let runs = ActionTests.PendingRuns<Int, Int>()
        let action = Action<Int, Int> { input, done in runs.add(input, done) }
        let values = action.values.record()
        let errors = action.errors.record()
        let executing = action.isExecuting.record()
        #expect(action.apply(1))
        action.cancel()
        #expect(errors.values.count == 1)
        #expect(errors.values.first is CancellationError)
        #expect(!action.isExecuting.value)
        runs.done(0)(.success(10)) // the work finishes anyway: dropped
        values.assertValues([])
        #expect(errors.values.count == 1)
        executing.assertValues([false, true, false])
        #expect(action.apply(2), "a cancelled run no longer blocks the next one")
        runs.done(1)(.success(20))
        values.assertValues([20])
    }

    @Test func cancelWithNothingRunningDoesNothing() {
        let action = Action<Int, Int> { input, done in done(.success(input)) }
        let errors = action.errors.record()
        let executing = action.isExecuting.record()
        action.cancel()
        #expect(action.apply(1))
        action.cancel()
        #expect(errors.values.isEmpty)
        executing.assertValues([false, true, false])
    }

    @Test func cancellingTwiceEndsTheRunOnce() {
        let runs = ActionTests.PendingRuns<Int, Int>()
        let action = Action<Int, Int> { input, done in runs.add(input, done) }
        let errors = action.errors.record()
        #expect(action.apply(1))
        action.cancel()
        action.cancel()
        #expect(errors.values.count == 1)
    }

    @Test func aCallbackRunCancelledFromInsideItsWorkEndsAtOnce() {
        let holder = Locked<Action<Int, Int>?>(nil)
        let late = Locked<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        let action = Action<Int, Int> { _, done in
            holder.value?.cancel() // before the work has even returned
            late.value = done
        }
        holder.value = action
        let values = action.values.record()
        let errors = action.errors.record()
        #expect(action.apply(1))
        #expect(errors.values.count == 1)
        #expect(errors.values.first is CancellationError)
        #expect(!action.isExecuting.value)
        late.value?(.success(1))
        values.assertValues([])
        holder.value = nil
    }

    @Test func anAsyncRunThatCancelsItselfHasItsTaskCancelled() async {
        // The run may cancel itself before `apply` has kept its task: it is cancelled anyway.
        let gate = CancellationGate()
        let stopped = EventLog<String>()
        let holder = Locked<Action<Void, Int>?>(nil)
        let action = Action<Void, Int> {
            holder.value?.cancel()
            await gate.waitForCancellation()
            stopped.append(Task.isCancelled ? "cancelled" : "not cancelled")
            return 1
        }
        holder.value = action
        let values = action.values.record()
        let errors = action.errors.record()
        #expect(action.apply())
        await stopped.wait(forCount: 1)
        #expect(stopped.events == ["cancelled"])
        #expect(errors.values.count == 1)
        #expect(errors.values.first is CancellationError)
        #expect(values.values.isEmpty)
        holder.value = nil
    }

    @Test(.tags(.regression)) func aCancelLandingAsARunStartsAlwaysStopsItsWork() async {
        // Another thread cancels as `isExecuting` turns true, so that the cancel lands in
        // every part of `apply`'s start: before the run is recorded, while its task is being
        // made, or after. Every run must end cancelled, and no task may be left running.
        let rounds = 300
        let outcomes = RoundOutcomes()
        var uncancelledRounds: [Int] = []
        for round in 0..<rounds {
            let gate = outcomes.gate(for: round)
            let token = LateResult(round) { outcomes.settle(round) }
            let action = Action<Int, Int> { _ in
                await gate.waitForCancellation()
                return token.value
            }
            let errors = action.errors.record()
            let cancelled = DispatchSemaphore(value: 0)
            // Told in line as `isExecuting` turns true (before `apply` has recorded the run
            // or made its task), the observer hands the cancel to another thread, which
            // lands it a few microseconds later: anywhere in the rest of the start. No
            // thread spins, so a loaded machine only moves where it lands.
            let canceller = action.isExecuting.signal.observe { executing in
                guard executing else { return }
                DispatchQueue.global().async {
                    action.cancel()
                    cancelled.signal()
                }
            }
            #expect(action.apply(round))
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async {
                    cancelled.wait()
                    continuation.resume()
                }
            }
            if !(errors.values.count == 1 && errors.values.first is CancellationError) {
                uncancelledRounds.append(round)
            }
            #expect(!action.isExecuting.value)
            canceller.dispose()
        }
        #expect(uncancelledRounds.isEmpty, "runs not ended by the cancel: \(uncancelledRounds)")
        // Every cancel has returned, and a cancel stops its task before it returns. So each
        // round's token is freed (no task, or one that ended), or its task entered its work
        // uncancelled and waits there for good: a run left running.
        await outcomes.waitUntilEveryRoundIsSettled(rounds)
        #expect(outcomes.leftRunning.isEmpty, "runs left running: \(outcomes.leftRunning)")
    }

    @Test(.tags(.regression)) func aCancelAsANewRunStartsWhileTheLastOneEndsEndsTheNewRun() {
        // The last run's end is being delivered (an observer of `isEnabled` holds it there)
        // when another thread starts the next run, and a cancel comes as that start is
        // observed: the cancel is for the new run, and must end it rather than be spent on
        // the run that had already ended.
        let runs = ActionTests.PendingRuns<Int, Int>()
        let action = Action<Int, Int> { input, done in runs.add(input, done) }
        let errors = action.errors.record()
        let values = action.values.record()
        let startedAgain = DispatchSemaphore(value: 0)
        let cancelReturned = DispatchSemaphore(value: 0)
        let phase = Locked(0)
        let starts = action.isExecuting.signal.observe { executing in
            guard executing, phase.value == 1 else { return }
            phase.value = 2
            DispatchQueue.global().async {
                action.cancel()
                cancelReturned.signal()
            }
            _ = cancelReturned.wait(timeout: .now() + 30)
        }
        let ends = action.isEnabled.signal.observe { enabled in
            guard enabled, phase.value == 0 else { return }
            phase.value = 1
            DispatchQueue.global().async {
                #expect(action.apply(2))
                startedAgain.signal()
            }
            _ = startedAgain.wait(timeout: .now() + 30)
        }
        #expect(action.apply(1))
        runs.done(0)(.success(10))
        #expect(phase.value == 2, "the new run's start was observed")
        values.assertValues([10])
        #expect(errors.values.count == 1, "the cancel ended the new run")
        #expect(errors.values.first is CancellationError)
        #expect(!action.isExecuting.value)
        starts.dispose()
        ends.dispose()
    }

    @Test(.tags(.regression)) func aCancelThatMeetsOnlyAnEndingRunIsNotKeptForTheNextOne() {
        // Cancelled from an observer of its own result, the run has ended but `isExecuting`
        // is still true: nothing is left to cancel, and the next run must not inherit it.
        let action = Action<Int, Int> { input, done in done(.success(input)) }
        let errors = action.errors.record()
        let values = action.values.record()
        let canceller = action.values.observe { _ in action.cancel() }
        #expect(action.apply(1))
        canceller.dispose()
        #expect(action.apply(2))
        values.assertValues([1, 2])
        #expect(errors.values.isEmpty)
    }

    // MARK: The completion is @Sendable

    @Test func theCompletionCanBeCalledFromASendableCallbackOnAnotherThread() async {
        // No `nonisolated(unsafe)` or box: the completion handed to the work is `@Sendable`.
        let viaDispatch = Action<Int, Int> { input, done in
            DispatchQueue.global().async { done(.success(input + 1)) }
        }
        let viaTask = Action<Int, Int> { input, done in
            Task.detached { done(.success(input * 3)) }
        }
        let events = EventLog<String>()
        let first = viaDispatch.values.observe { events.append("dispatch \($0)") }
        let second = viaTask.values.observe { events.append("task \($0)") }
        #expect(viaDispatch.apply(1))
        await events.wait(forCount: 1)
        #expect(viaTask.apply(5))
        await events.wait(forCount: 2)
        #expect(events.events == ["dispatch 2", "task 15"])
        first.dispose()
        second.dispose()
    }

    @Test(.tags(.regression)) func cancellingFromAnObserverOfTheStartOfARunEndsThatRun() {
        let action = Action<Int, Int> { input, done in done(.success(input)) }
        let values = Locked<[Int]>([])
        let errors = Locked(0)
        action.values.observe { values.append($0) }
        action.errors.observe { _ in _ = errors.increment() }
        let canceller = action.isExecuting.signal.observe { if $0 { action.cancel() } }
        #expect(action.apply(1))
        #expect(values.value.isEmpty)
        #expect(errors.value == 1)
        #expect(!action.isExecuting.value)
        canceller.dispose()
        #expect(action.apply(2))
        #expect(values.value == [2], "a later run is not cancelled by the earlier cancel")
    }
}
