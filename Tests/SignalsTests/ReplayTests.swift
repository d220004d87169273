import Signals
import SignalsTesting
import Testing

/// `share(replay:)`: new observers get the last values first, then live values.
@Suite(.timeLimit(.minutes(1))) struct ReplayTests {
    @Test func aNewObserverGetsTheLastValuesInOrderThenLiveValues() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 2)
        let first = shared.record()
        input.send(1)
        input.send(2)
        input.send(3)
        let second = shared.record()
        second.assertValues([2, 3])
        input.send(4)
        first.assertValues([1, 2, 3, 4])
        second.assertValues([2, 3, 4])
    }

    @Test func replayStartsWithTheFirstObserver() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 3)
        input.send(1)
        let first = shared.record()
        input.send(2)
        first.assertValues([2])
        shared.record().assertValues([2])
    }

    @Test func anObserverAfterTheCompletionGetsTheKeptValuesThenTheCompletion() {
        let request = Signal(values: [1, 2, 3]).share(replay: 1)
        request.record().assertEvents([.value(1), .value(2), .value(3), .completed])
        request.record().assertEvents([.value(3), .completed])
    }

    @Test func anObserverAddedFromInsideTheCompletionGetsTheKeptValuesThenTheCompletion() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 2)
        let late = Locked<Recorder<Int>?>(nil)
        let completion = shared.observeCompleted { late.value = shared.record() }
        input.send(1)
        input.send(2)
        input.send(3)
        input.sendCompleted()
        late.value?.assertEvents([.value(2), .value(3), .completed])
        #expect(late.value != nil)
        completion.dispose()
    }

    @Test func anObserverAddedWhileQueuedValuesAndTheCompletionWaitGetsThemAll() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 5)
        let late = Locked<Recorder<Int>?>(nil)
        // From inside the delivery of 1: 2 and the completion are queued behind it, then an
        // observer arrives after the completion was sent but before it was delivered.
        let sender = shared.observe { value in
            guard value == 1 else { return }
            input.send(2)
            input.sendCompleted()
            late.value = shared.record()
        }
        input.send(1)
        late.value?.assertEvents([.value(1), .value(2), .completed])
        #expect(late.value != nil)
        sender.dispose()
    }

    @Test func replayOfZeroGivesNothingToNewObservers() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 0)
        let first = shared.record()
        input.send(1)
        shared.record().assertValues([])
        first.assertValues([1])
        Signal(value: 1).share(replay: -1).record().assertEvents([.value(1), .completed])
    }

    @Test func anObserverAddedDuringADeliveryGetsTheValueInFlightOnceByReplay() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 1)
        let late = Locked<Recorder<Int>?>(nil)
        let adder = shared.observe { value in
            if value == 1 { late.value = shared.record() }
        }
        input.send(1)
        input.send(2)
        late.value?.assertValues([1, 2])
        #expect(late.value != nil)
        adder.dispose()
    }

    @Test func aValueSentFromInsideAReplayWaitsForTheRestOfIt() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 3)
        let keep = shared.observe { _ in }
        input.send(1)
        input.send(2)
        let received = Locked<[Int]>([])
        let reacting = shared.observe { value in
            received.append(value)
            if value == 1 { input.send(3) }
        }
        #expect(received.value == [1, 2, 3])
        reacting.dispose()
        keep.dispose()
    }

    @Test func anObserverThatDisposesItselfDuringTheReplayGetsNothingMore() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 3)
        let keep = shared.observe { _ in }
        input.send(1)
        input.send(2)
        input.send(3)
        // Replayed values are delivered inside the `observe` call: dispose through a flag.
        let received = Locked<[Int]>([])
        let done = Locked(false)
        let subscription = shared.observe { value in
            guard !done.value else { return }
            received.append(value)
        }
        done.value = true
        subscription.dispose()
        input.send(4)
        #expect(received.value == [1, 2, 3])
        keep.dispose()
    }

    @Test func observersAddedWhileAnotherThreadSendsGetEveryValueOnceInOrder() async {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 2)
        let keep = shared.observe { _ in }
        let recorders = Locked<[Recorder<Int>]>([])
        await onThreads(2) { thread in
            if thread == 0 {
                for value in 0..<2000 { input.send(value) }
            } else {
                for _ in 0..<50 { recorders.append(shared.record()) }
            }
        }
        for recorder in recorders.value {
            let values = recorder.values
            #expect(values.last == 1999)
            // A run of consecutive values: nothing missed, nothing twice, in order.
            #expect(values == Array((values.first ?? 0)...1999))
        }
        keep.dispose()
    }

    @Test func aScheduledSignalIsReplayedInDeliveryOrder() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let shared = signal.share(replay: 2)
        let first = shared.record(on: scheduler)
        scheduler.drive(input, with: "abc-d|")
        scheduler.advance(by: .seconds(3))
        let second = shared.record(on: scheduler)
        scheduler.run()
        first.assertMarbles("abc-d|")
        second.assertMarbles("---(bc)d|")
    }

    @Test(.tags(.regression)) func anObserverAddedDuringALateReplayGetsNoneOfIt() {
        // A late observer of a completed replay gets its catch-up in a delivery, so an
        // operator sharing that delivery (`map`) delivers it to the observers there when
        // it started: one added meanwhile gets only the completion. The catch-up used to
        // run outside any delivery, where disposing an observer dropped `map`'s snapshot:
        // the added observer then got the next value, and had it disposed itself there,
        // its closures were freed while they ran.
        let shared = Signal(values: [10, 11]).share(replay: 2)
        shared.record().assertEvents([.value(10), .value(11), .completed])
        let mapped = shared.map { $0 * 2 }
        let added = Locked<Recorder<Int>?>(nil)
        let first = mapped.observe { _ in
            guard added.value == nil else { return }
            added.value = mapped.record()
            mapped.observe { _ in }.dispose()
        }
        added.value?.assertEvents([.completed])
        #expect(added.value != nil)
        first.dispose()
    }
}
