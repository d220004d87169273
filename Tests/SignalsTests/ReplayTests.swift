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
        // it started. One added meanwhile is a late observer of `map`, which replays what it
        // delivered (V.8a): it gets those values once, after the catch-up in progress, then
        // the completion. The catch-up used to run outside any delivery, where disposing an
        // observer dropped `map`'s snapshot: the added observer then got the next value in
        // the middle of it, and had it disposed itself there, its closures were freed while
        // they ran.
        let shared = Signal(values: [10, 11]).share(replay: 2)
        shared.record().assertEvents([.value(10), .value(11), .completed])
        let mapped = shared.map { $0 * 2 }
        let added = Locked<Recorder<Int>?>(nil)
        let first = mapped.observe { _ in
            guard added.value == nil else { return }
            added.value = mapped.record()
            mapped.observe { _ in }.dispose()
        }
        added.value?.assertEvents([.value(20), .value(22), .completed])
        #expect(added.value != nil)
        first.dispose()
    }
}

/// Contract V.8a: a late observer of a shared chain gets the replay through the in-line
/// operators after `share(replay:)` (RxSwift's `Driver` habit), not nothing.
@Suite(.timeLimit(.minutes(1))) struct SharedChainReplayTests {
    @Test func aLateObserverOfAMapOfASharedSignalGetsTheReplayThroughIt() {
        let (signal, input) = Signal<Int>.pipe()
        let calls = Locked(0)
        let labels = signal.share(replay: 1).map { value -> String in
            _ = calls.increment()
            return "#\(value)"
        }
        let first = labels.record()
        input.send(1)
        input.send(2)
        let late = labels.record()
        late.assertValues(["#2"])
        input.send(3)
        first.assertValues(["#1", "#2", "#3"])
        late.assertValues(["#2", "#3"])
        #expect(calls.value == 3, "the replay hands out what the map made; it does not map again")
    }

    @Test func filterCompactMapAndScanReplayWhatTheyDelivered() {
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 2)
        let evens = shared.filter { $0.isMultiple(of: 2) }
        let halves = shared.compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        let sums = shared.scan(0, +)
        let keep = [evens.observe { _ in }, halves.observe { _ in }, sums.observe { _ in }]
        for value in 1...6 { input.send(value) }
        evens.record().assertValues([4, 6])
        halves.record().assertValues([2, 3])
        sums.record().assertValues([15, 21])
        keep.forEach { $0.dispose() }
    }

    @Test func aChainOfSeveralOperatorsReplaysAtItsEnd() {
        let (signal, input) = Signal<Int>.pipe()
        let shown = signal.share(replay: 1).map { $0 * 10 }.filter { $0 > 10 }.map { "\($0)" }
        let first = shown.record()
        input.send(1)
        input.send(2)
        shown.record().assertValues(["20"])
        first.assertValues(["20"])
    }

    @Test func aLateObserverAfterTheCompletionGetsTheKeptValuesThenTheCompletion() {
        let labels = Signal(values: [1, 2, 3]).share(replay: 2).map { $0 * 2 }
        labels.record().assertEvents([.value(2), .value(4), .value(6), .completed])
        labels.record().assertEvents([.value(4), .value(6), .completed])
    }

    @Test func withoutASharedReplayBehindItAMapReplaysNothing() {
        let (signal, input) = Signal<Int>.pipe()
        let labels = signal.map { $0 * 2 }
        let first = labels.record()
        input.send(1)
        labels.record().assertValues([])
        first.assertValues([2])
    }

    @Test func observersAddedWhileAnotherThreadSendsGetEveryValueOnceInOrder() async {
        let (signal, input) = Signal<Int>.pipe()
        let doubled = signal.share(replay: 1).map { $0 * 2 }
        let keep = doubled.observe { _ in }
        let recorders = Locked<[Recorder<Int>]>([])
        await onThreads(2) { thread in
            if thread == 0 {
                for value in 0..<2000 { input.send(value) }
            } else {
                for _ in 0..<50 { recorders.append(doubled.record()) }
            }
        }
        for recorder in recorders.value {
            let values = recorder.values
            #expect(values.last == 3998)
            #expect(values == Array(stride(from: values.first ?? 0, through: 3998, by: 2)))
        }
        keep.dispose()
    }

    @Test(.tags(.regression)) func anObserverAddedToAMapDuringADeliveryGetsTheValueInFlightOnce() {
        // Added while `0` is being delivered (from an observer of the shared signal, before
        // the map has delivered it), the recorder's catch-up is queued behind that delivery.
        // The map refreshes its list of observers later in the same delivery: the recorder
        // used to be on it, and got `0` live as well as in its catch-up.
        let (signal, input) = Signal<Int>.pipe()
        let shared = signal.share(replay: 1)
        let doubled = shared.map { $0 * 2 }
        let added = Locked<[Recorder<Int>]>([])
        let adder = shared.observe { value in
            if value == 0 { added.append(doubled.record()) }
        }
        let keep = doubled.observe { _ in }
        input.send(0)
        input.send(1)
        added.value.first?.assertValues([0, 2])
        #expect(added.value.count == 1)
        adder.dispose()
        keep.dispose()
    }
}
