import Signals
import SignalsTesting
import Testing

/// `Signal.init(_ start:)`, `Signal.task` and `AnyDisposable`: work with a disposal hook,
/// stopped when nobody listens any more.
@Suite(.timeLimit(.minutes(1))) struct SignalFromWorkTests {
    /// A signal whose work keeps its input in `inputs` and counts its stops in `stops`.
    private func work(_ inputs: Locked<[Signal<Int>.Input]>, _ stops: Locked<Int>) -> Signal<Int> {
        Signal { input in
            inputs.append(input) // keeping the input keeps the signal going
            return AnyDisposable { stops.increment() }
        }
    }

    @Test func theWorkStartsWithTheFirstObserverAndItsInputSendsToObservers() {
        let inputs = Locked<[Signal<Int>.Input]>([])
        let stops = Locked(0)
        let signal = work(inputs, stops)
        #expect(inputs.value.isEmpty, "nobody listens yet")
        let recorder = signal.record()
        #expect(inputs.value.count == 1)
        _ = signal.observe { _ in }
        #expect(inputs.value.count == 1, "started once")
        inputs.value[0].send(1)
        inputs.value[0].send(2)
        recorder.assertValues([1, 2])
        #expect(stops.value == 0)
    }

    @Test func theDisposalHookRunsWhenTheReleasedSignalLosesItsLastObserver() {
        let inputs = Locked<[Signal<Int>.Input]>([])
        let stops = Locked(0)
        var signal: Signal<Int>? = work(inputs, stops)
        let first = signal!.record()
        let second = signal!.observe { _ in }
        inputs.value[0].send(1)
        signal = nil
        #expect(stops.value == 0, "observers still listen")
        first.stop()
        #expect(stops.value == 0, "one observer still listens")
        second.dispose()
        #expect(stops.value == 1)
        first.assertValues([1])
    }

    @Test func theDisposalHookWaitsWhileTheSignalIsStillHeld() {
        let inputs = Locked<[Signal<Int>.Input]>([])
        let stops = Locked(0)
        var signal: Signal<Int>? = work(inputs, stops)
        signal?.observe { _ in }.dispose()
        #expect(stops.value == 0, "whoever holds the signal may still observe it")
        signal = nil
        #expect(stops.value == 1)
    }

    @Test func theDisposalHookRunsOnceWhenTheSignalCompletes() {
        let inputs = Locked<[Signal<Int>.Input]>([])
        let stops = Locked(0)
        var signal: Signal<Int>? = work(inputs, stops)
        let recorder = signal!.record()
        inputs.value[0].send(1)
        inputs.value[0].sendCompleted()
        #expect(stops.value == 1)
        recorder.assertEvents([.value(1), .completed])
        signal = nil
        #expect(stops.value == 1)
    }

    @Test func workThatLetsGoOfItsInputCompletesTheSignalAtOnce() {
        // Freeing an input completes its signal, this one's too: the work is stopped.
        let stops = Locked(0)
        let signal = Signal<Int> { _ in AnyDisposable { stops.increment() } }
        #expect(stops.value == 0)
        signal.record().assertEvents([.completed])
        #expect(stops.value == 1)
    }

    @Test func whatATaskSendsAtOnceReachesItsFirstObserver() async {
        for round in 0..<200 {
            let values = EventLog<Int>()
            let signal = Signal<Int>.task { input in input.send(round) }
            let observation = signal.observe { values.append($0) }
            await values.wait(forCount: 1)
            #expect(values.events == [round])
            observation.dispose()
        }
    }

    @Test func anyDisposableRunsItsActionOnceFromAnyThread() async {
        let runs = Locked(0)
        let disposable = AnyDisposable { runs.increment() }
        #expect(!disposable.isDisposed)
        await onThreads(4) { _ in
            for _ in 0..<100 { disposable.dispose() }
        }
        #expect(disposable.isDisposed)
        #expect(runs.value == 1)
    }

    @Test func flatMapLatestStopsTheWorkItSwitchesAwayFrom() {
        let inputs = Locked<[Int: Signal<String>.Input]>([:])
        let stopped = Locked<[Int]>([])
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { id in
            Signal<String> { input in
                inputs.withLock { $0[id] = input }
                return AnyDisposable { stopped.append(id) }
            }
        }.record()
        select.send(1)
        inputs.value[1]?.send("1a")
        #expect(stopped.value == [])
        select.send(2)
        #expect(stopped.value == [1])
        inputs.value[1]?.send("1b")
        inputs.value[2]?.send("2a")
        recorder.assertValues(["1a", "2a"])
        recorder.stop()
        #expect(stopped.value == [1, 2], "the last observer left: the current work stops too")
    }

    // MARK: Signal.task

    @Test func aTaskSignalSendsWhatItsOperationSendsThenCompletes() async {
        let go = EventLog<Void>()
        let signal = Signal<Int>.task { input in
            await go.wait(forCount: 1) // the signal is hot: send once someone listens
            input.send(1)
            input.send(2)
        }
        let events = EventLog<String>()
        let values = signal.observe { events.append("\($0)") }
        let completion = signal.observeCompleted { events.append("completed") }
        go.append(())
        await events.wait(forCount: 3)
        #expect(events.events == ["1", "2", "completed"])
        values.dispose()
        completion.dispose()
    }

    @Test func aTaskSignalIsCancelledWhenItsLastObserverLeaves() async {
        let go = EventLog<Void>()
        let gate = CancellationGate()
        let trace = EventLog<String>()
        var signal: Signal<Int>? = Signal<Int>.task { input in
            await go.wait(forCount: 1)
            input.send(1)
            await gate.waitForCancellation()
            trace.append(Task.isCancelled ? "cancelled" : "not cancelled")
        }
        let values = EventLog<Int>()
        let observation = signal!.observe { values.append($0) }
        go.append(())
        await values.wait(forCount: 1)
        signal = nil
        #expect(trace.events.isEmpty, "still observed")
        observation.dispose()
        await trace.wait(forCount: 1)
        #expect(trace.events == ["cancelled"])
        #expect(values.events == [1])
    }

    @Test func flatMapLatestCancelsTheTaskItSwitchesAwayFrom() async {
        let cancelled = EventLog<Int>()
        let (outer, select) = Signal<Int>.pipe()
        let observation = outer.flatMapLatest { id in
            Signal<Int>.task { _ in
                await CancellationGate().waitForCancellation()
                if Task.isCancelled { cancelled.append(id) }
            }
        }.observe { _ in }
        select.send(1)
        select.send(2)
        await cancelled.wait(forCount: 1)
        #expect(cancelled.events == [1])
        observation.dispose()
        await cancelled.wait(forCount: 2)
        #expect(cancelled.events == [1, 2])
    }
}
