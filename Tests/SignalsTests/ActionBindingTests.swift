import Dispatch
import Signals
import SignalsTesting
import Testing

/// `action <~ inputs`: each input a signal sends applies the action.
@Suite(.timeLimit(.minutes(1))) struct ActionBindingTests {
    @Test func eachInputAppliesTheActionAndAnInputWhileBusyIsDroppedAndToldOnDisabledErrors() {
        let runs = ActionTests.PendingRuns<Int, Int>()
        let action = Action<Int, Int> { input, done in runs.add(input, done) }
        let (inputs, send) = Signal<Int>.pipe()
        let values = action.values.record()
        let refused = action.disabledErrors.record()
        action <~ inputs
        send.send(1)
        send.send(2)
        #expect(runs.inputs == [1], "the second input came while the first ran")
        #expect(refused.values.count == 1)
        runs.done(0)(.success(10))
        send.send(3)
        runs.done(1)(.success(30))
        #expect(runs.inputs == [1, 3])
        values.assertValues([10, 30])
        #expect(refused.values.count == 1)
    }

    @Test func anInputWhileDisabledIsDroppedAndToldOnDisabledErrors() {
        let allowed = MutableProperty(false)
        let action = Action<Void, Int>(enabledIf: allowed) { _, done in done(.success(1)) }
        let (taps, tap) = Signal<Void>.pipe()
        let values = action.values.record()
        let refused = action.disabledErrors.record()
        action <~ taps
        tap.send()
        allowed.value = true
        tap.send()
        values.assertValues([1])
        #expect(refused.values.count == 1)
    }

    @Test func disposingTheBindingStopsApplying() {
        let calls = Locked(0)
        let action = Action<Int, Int> { input, done in
            calls.increment()
            done(.success(input))
        }
        let (inputs, send) = Signal<Int>.pipe()
        let binding = action <~ inputs
        send.send(1)
        binding.dispose()
        send.send(2)
        #expect(calls.value == 1)
    }

    @Test func theBindingHoldsTheActionWeaklyAndEndsAtTheFirstInputAfterItIsFreed() {
        let tracker = ReleaseTracker()
        let (inputs, send) = Signal<Int>.pipe()
        var action: Action<Int, Int>? = Action<Int, Int> { input, done in done(.success(input)) }
        if let action { tracker.track(action, "action") }
        let binding = action.map { $0 <~ inputs }
        action = nil
        #expect(tracker.alive.isEmpty, "the binding does not keep the action")
        send.send(1)
        #expect(binding?.isDisposed == true)
    }

    @Test func anInputFromAnotherThreadAppliesTheActionOnThatThread() async {
        let worker = MarkedQueue(label: "action-binding.worker")
        let appliedOnWorker = Locked<[Bool]>([])
        let action = Action<Int, Int> { input, done in
            appliedOnWorker.append(worker.isCurrent)
            done(.success(input))
        }
        let (inputs, send) = Signal<Int>.pipe()
        let values = action.values.record()
        action <~ inputs
        await withCheckedContinuation { continuation in
            worker.queue.async {
                send.send(5)
                continuation.resume()
            }
        }
        #expect(appliedOnWorker.value == [true])
        values.assertValues([5])
    }

    @Test @MainActor func anAsyncRunAppliedFromTheMainActorEndsOnTheMainActor() async throws {
        let action = Action<Int, Int> { input in
            await Task.yield()
            return input * 2
        }
        let ended = Locked(0)
        let observation = action.values.observe { _ in
            MainActor.assertIsolated()
            dispatchPrecondition(condition: .onQueue(.main))
            ended.increment()
        }
        let (inputs, send) = Signal<Int>.pipe()
        action <~ inputs
        send.send(21)
        _ = try await action.isExecuting.first(where: { !$0 })
        observation.dispose()
        #expect(ended.value == 1)
    }
}
