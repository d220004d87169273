import Dispatch
import Signals
import SignalsTesting
import Testing

/// Work behind a signal starts when an observer at the end of the chain is registered, so
/// whatever it sends at once, through any operator and any scheduler, reaches that
/// observer (contract 4.10).
@Suite(.timeLimit(.minutes(1))) struct StartOnObservationTests {
    /// Work that sends `values` at once, then completes, counting its starts.
    private func work(_ values: [Int], starts: Locked<Int> = Locked(0)) -> Signal<Int> {
        Signal { input in
            starts.increment()
            for value in values { input.send(value) }
            input.sendCompleted()
            return AnyDisposable {}
        }
    }

    /// Everything `signal` delivers until it completes, awaited without polling.
    private func collect<Value: Sendable>(_ signal: Signal<Value>) async -> [Value] {
        let received = Locked<[Value]>([])
        let subscription = Locked<Disposable?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            subscription.value = signal.observe { received.append($0) }
            signal.observeCompleted { done.resume() }
        }
        subscription.value?.dispose()
        return received.value
    }

    // MARK: - One source, through each operator

    @Test func mappingOperatorsPassOnWhatTheWorkSendsAtOnce() {
        work([1, 2]).map { $0 * 10 }.record().assertEvents([.value(10), .value(20), .completed])
        work([1, 2, 3]).filter { $0 != 2 }.record().assertEvents([.value(1), .value(3), .completed])
        work([1, 2]).compactMap { $0 == 1 ? nil : $0 }.record().assertEvents([.value(2), .completed])
        work([1, 2, 3]).scan(0, +).record().assertEvents([.value(1), .value(3), .value(6), .completed])
        work([1, 1, 2]).skipRepeats().record().assertEvents([.value(1), .value(2), .completed])
        work([1, 2]).prefix(value: 0).record().assertEvents([.value(0), .value(1), .value(2), .completed])
    }

    @Test func countingOperatorsPassOnWhatTheWorkSendsAtOnce() {
        work([1, 2, 3]).take(first: 2).record().assertEvents([.value(1), .value(2), .completed])
        work([1, 2, 3]).skip(first: 1).record().assertEvents([.value(2), .value(3), .completed])
        let (never, neverInput) = Signal<Void>.pipe()
        work([1, 2]).take(until: never).record().assertEvents([.value(1), .value(2), .completed])
        withExtendedLifetime(neverInput) {}
    }

    @Test func aLongChainPassesOnWhatTheWorkSendsAtOnce() {
        let chain = work([1, 2, 3, 4])
            .map { $0 + 1 }.filter { $0 % 2 == 0 }.scan(0, +).skipRepeats().map { "\($0)" }.take(first: 5)
        chain.record().assertEvents([.value("2"), .value("6"), .completed])
    }

    @Test func combiningOperatorsPassOnWhatTheirWorkSendsAtOnce() {
        Signal.merge(work([1, 2]), work([3])).record()
            .assertEvents([.value(1), .value(2), .value(3), .completed])
        Signal.combineLatest(work([1, 2]), work([10])).map { $0 + $1 }.record()
            .assertEvents([.value(12), .completed])
        Signal.combineLatest(work([1]), work([10]), work([100])).map { $0 + $1 + $2 }.record()
            .assertEvents([.value(111), .completed])
        Signal.zip(work([1, 2]), work([10, 20])).map { $0 + $1 }.record()
            .assertEvents([.value(11), .value(22), .completed])
        Signal.zip(work([1]), work([10]), work([100])).map { $0 + $1 + $2 }.record()
            .assertEvents([.value(111), .completed])
    }

    @Test func withLatestSeesWhatItsSampledWorkSendsAtOnce() {
        let (sampled, sampledInput) = Signal<Int>.pipe()
        let prefixed = sampled.prefix(value: 7)
        let (triggers, trigger) = Signal<Int>.pipe()
        let recorder = triggers.withLatest(from: prefixed).map { $0 + $1 }.record()
        trigger.send(1)
        sampledInput.send(10)
        trigger.send(2)
        recorder.assertValues([8, 12])
        work([1, 2]).withLatest(from: MutableProperty(5)).map { $0 * $1 }.record()
            .assertEvents([.value(5), .value(10), .completed])
    }

    @Test func flatMapLatestPassesOnWhatItsWorkSendsAtOnce() {
        work([1, 2]).flatMapLatest { value in self.work([value * 10, value * 10 + 1]) }.record()
            .assertEvents([.value(10), .value(11), .value(20), .value(21), .completed])
    }

    /// ReactiveSwift's "flatten latest should not deadlock": an inner signal that sends at
    /// once, inside the outer signal's delivery.
    @Test func flatMapLatestOverAnInnerSignalThatSendsAtOnceDoesNotDeadlock() {
        let outer = Signal<Int> { input in
            input.send(1)
            return AnyDisposable {}
        }
        let recorder = outer.flatMapLatest { _ in self.work([42]) }.record()
        recorder.assertValues([42])
    }

    // MARK: - Through schedulers

    /// RxSwift's `observeOn` test, ported: what the work sends at once arrives on the queue,
    /// in order, every run.
    @Test func observeOnAQueueGetsWhatTheWorkSendsAtOnceEveryTime() async {
        let scheduler = QueueScheduler(label: "start-on-observation")
        for _ in 0..<200 {
            let values = await collect(work([1, 2, 3]).observe(on: scheduler))
            #expect(values == [1, 2, 3])
        }
    }

    @Test func timingOperatorsOnAQueueGetWhatTheWorkSendsAtOnce() async {
        let scheduler = QueueScheduler(label: "start-on-observation-timing")
        for _ in 0..<50 {
            #expect(await collect(work([1, 2, 3]).throttle(.seconds(10), on: scheduler)) == [1, 3])
            #expect(await collect(work([1, 2, 3]).debounce(.seconds(10), on: scheduler)) == [3])
            #expect(await collect(work([1, 2]).delay(.milliseconds(1), on: scheduler)) == [1, 2])
        }
    }

    @Test func aTestSchedulerDeliversWhatTheWorkSentAtOnceOnItsNextAdvance() {
        let scheduler = TestScheduler()
        let recorder = work([1, 2]).map { $0 * 10 }.observe(on: scheduler).record()
        #expect(recorder.events.isEmpty)
        scheduler.advance()
        recorder.assertEvents([.value(10), .value(20), .completed])
    }

    // MARK: - When the work starts, and how often

    @Test func aChainNobodyObservesStartsNoWork() {
        let starts = Locked(0)
        let chain = work([1], starts: starts).map { $0 }.filter { _ in true }
        #expect(starts.value == 0)
        withExtendedLifetime(chain) {}
        #expect(starts.value == 0)
    }

    @Test func anOperatorsStateStartsWithItsFirstObserver() {
        let (source, input) = Signal<Int>.pipe()
        let total = source.scan(0, +)
        let pairs = Signal.combineLatest(source, source.map { $0 * 10 })
        input.send(1) // before anyone observes: no operator sees it
        let totals = total.record()
        let combined = pairs.record()
        input.send(2)
        totals.assertValues([2])
        combined.assertValues([(2, 20)], by: ==)
    }

    @Test func anUnobservedChainLetsGoOfItsWorkWithoutStartingIt() {
        let starts = Locked(0)
        let tracker = ReleaseTracker()
        do {
            let source = work([1], starts: starts)
            tracker.track(source, "source")
            let chain = source.map { $0 }.take(first: 1)
            tracker.track(chain, "chain")
        }
        tracker.assertAllReleased()
        #expect(starts.value == 0)
    }

    @Test func theWorkStartsOnceForEveryObserverOfAChain() {
        let starts = Locked(0)
        let (source, input) = Signal<Int>.pipe()
        let shared = Signal<Int> { work in
            starts.increment()
            let forwarding = source.observe { work.send($0) }
            return AnyDisposable { withExtendedLifetime(work) { forwarding.dispose() } }
        }
        let chain = shared.map { $0 * 2 }
        let first = chain.record()
        let second = chain.record()
        input.send(1)
        #expect(starts.value == 1)
        first.assertValues([2])
        second.assertValues([2])
    }

    @Test func anObserverOnTheMainActorGetsWhatTheWorkSendsAtOnce() async {
        let received = Locked<[Int]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Task { @MainActor in
                work([1, 2]).map { $0 * 3 }.observeOnMainActor { value in
                    received.append(value)
                    if value == 6 { done.resume() }
                }
            }
        }
        #expect(received.value == [3, 6])
    }
}
