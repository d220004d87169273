import Dispatch
import Signals
import SignalsTesting
import Testing

/// `Signal(value:)`, `Signal(values:)`, `.empty`, `.never` and `Signal.timer(every:on:)`:
/// start-once signals whose work begins with the first observer.
@Suite(.timeLimit(.minutes(1))) struct ConstructorTests {
    // MARK: Signal(value:) and Signal(values:)

    @Test func aValueSignalSendsItsValueToTheFirstObserverThenCompletes() {
        let signal = Signal(value: 7)
        signal.record().assertEvents([.value(7), .completed])
        // Started once and completed: a later observer gets the completion only.
        signal.record().assertEvents([.completed])
    }

    @Test func aValueSignalStartsWithTheObserverAtTheEndOfAChain() {
        let chain = Signal(value: 2).map { $0 * 10 }.filter { $0 > 0 }
        chain.record().assertEvents([.value(20), .completed])
    }

    @Test func aValuesSignalSendsEveryElementInOrderThenCompletes() {
        Signal(values: 1...4).record().assertEvents([.value(1), .value(2), .value(3), .value(4), .completed])
        Signal<Int>(values: []).record().assertEvents([.completed])
    }

    @Test func anObserverThatDisposesItselfMidwayGetsNothingMore() {
        // The values go out inside the first `observe`, so the observer is registered
        // before a gate opens, and can then dispose itself by its handle.
        let (gate, open) = Signal<Void>.pipe()
        let values = gate.flatMapLatest { Signal(values: [1, 2, 3]) }
        let received = Locked<[Int]>([])
        let subscription = Locked<Disposable?>(nil)
        subscription.value = values.observe { value in
            received.append(value)
            if value == 1 { subscription.value?.dispose() }
        }
        let other = values.record()
        open.send()
        #expect(received.value == [1])
        other.assertValues([1, 2, 3])
    }

    @Test func aValueSentFromInsideAnObserverOfAValuesSignalIsQueuedBehindIt() {
        let (gate, open) = Signal<Void>.pipe()
        let (echoes, echo) = Signal<Int>.pipe()
        let merged = Signal.merge(gate.flatMapLatest { Signal(values: [1, 2]) }, echoes)
        let echoing = merged.observe { value in if value < 10 { echo.send(value * 10) } }
        let recorder = merged.record()
        open.send()
        // A value sent from inside an observer waits for the value in flight.
        recorder.assertValues([1, 10, 2, 20])
        echoing.dispose()
    }

    @Test func returningAConstantFromFlatMapLatestIsOneExpression() {
        let (queries, query) = Signal<String>.pipe()
        let results = queries.flatMapLatest { text in
            text.isEmpty ? Signal(value: [String]()) : Signal(values: [[text], [text, text]])
        }
        let recorder = results.record()
        query.send("")
        query.send("a")
        query.sendCompleted()
        recorder.assertEvents([.value([]), .value(["a"]), .value(["a", "a"]), .completed])
    }

    // MARK: empty and never

    @Test func emptyCompletesEveryObserverAtOnce() {
        let empty = Signal<Int>.empty
        empty.record().assertEvents([.completed])
        empty.map { $0 + 1 }.record().assertEvents([.completed])
        let (taps, tap) = Signal<Int>.pipe()
        let recorder = taps.flatMapLatest { _ in Signal<String>.empty }.record()
        tap.send(1)
        tap.sendCompleted()
        recorder.assertEvents([.completed])
    }

    @Test func neverSendsNothingAndNeverCompletes() {
        let never = Signal<Int>.never
        let recorder = never.record()
        let mapped = never.map { $0 + 1 }.record()
        recorder.assertEvents([])
        mapped.assertEvents([])
    }

    @Test func aReleasedNeverSignalIsFreedOnceItsObserversAreDisposed() {
        let tracker = ReleaseTracker()
        do {
            let never = Signal<Int>.never
            tracker.track(never, "never")
            never.observe { _ in }.dispose()
        }
        tracker.assertAllReleased()
    }

    @Test func flatMapLatestLetsGoOfANeverSignalItSwitchesAwayFrom() {
        let (taps, tap) = Signal<Bool>.pipe()
        let recorder = taps.flatMapLatest { waits in waits ? Signal<Int>.never : Signal(value: 1) }.record()
        tap.send(true)
        tap.send(false)
        tap.sendCompleted()
        // The outer signal and the current inner one completed: the never signal no longer counts.
        recorder.assertEvents([.value(1), .completed])
    }

    // MARK: timer

    @Test func aTimerTicksOncePerIntervalOnItsScheduler() {
        let scheduler = TestScheduler()
        let ticks = Signal.timer(every: .seconds(1), on: scheduler)
        let recorder = ticks.map { "\($0)" }.record(on: scheduler)
        recorder.assertEvents([])
        scheduler.advance(by: .seconds(3))
        recorder.assertMarbles("-123")
        #expect(recorder.timedEvents.map(\.time) == [.seconds(1), .seconds(2), .seconds(3)])
    }

    @Test func aTimerStartsWithItsFirstObserver() {
        let scheduler = TestScheduler()
        let ticks = Signal.timer(every: .seconds(2), on: scheduler)
        scheduler.advance(by: .seconds(5))
        #expect(!scheduler.hasPendingActions, "nobody observes: nothing is scheduled")
        let recorder = ticks.record(on: scheduler)
        scheduler.advance(by: .seconds(4))
        recorder.assertValues([1, 2])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(7), .seconds(9)])
    }

    @Test func aReleasedTimerStopsWhenItsLastObserverLeaves() {
        let scheduler = TestScheduler()
        let received = Locked<[Int]>([])
        var subscription: Disposable?
        do {
            subscription = Signal.timer(every: .seconds(1), on: scheduler).observe { received.append($0) }
        }
        scheduler.advance(by: .seconds(2))
        subscription?.dispose()
        #expect(!scheduler.hasPendingActions, "the pending tick was cancelled")
        scheduler.advance(by: .seconds(5))
        #expect(received.value == [1, 2])
    }

    @Test func anObserverThatDisposesItselfOnATickGetsNoMoreTicks() {
        let scheduler = TestScheduler()
        let ticks = Signal.timer(every: .seconds(1), on: scheduler)
        let received = Locked<[Int]>([])
        let subscription = Locked<Disposable?>(nil)
        subscription.value = ticks.observe { tick in
            received.append(tick)
            if tick == 2 { subscription.value?.dispose() }
        }
        let other = ticks.record()
        scheduler.advance(by: .seconds(4))
        #expect(received.value == [1, 2])
        other.assertValues([1, 2, 3, 4])
    }

    @Test func aTimerWithoutAPositiveIntervalNeverTicks() {
        let scheduler = TestScheduler()
        let recorder = Signal.timer(every: .zero, on: scheduler).record(on: scheduler)
        scheduler.advance(by: .seconds(10))
        recorder.assertEvents([])
        #expect(!scheduler.hasPendingActions)
    }

    @Test func aTimerDeliversItsTicksOnItsScheduler() async {
        let marked = MarkedQueue(label: "constructors.timer")
        let log = EventLog<String>()
        let ticks = Signal.timer(every: .milliseconds(5), on: QueueScheduler(queue: marked.queue))
        let subscription = ticks.take(first: 3).observe { log.append("\($0) \(marked.isCurrent)") }
        await log.wait(forCount: 3)
        #expect(log.events == ["1 true", "2 true", "3 true"])
        subscription.dispose()
    }
}
