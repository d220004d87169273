import Dispatch
import Foundation
import Signals
import SignalsTesting
import Synchronization
import Testing

/// One test (or more) per line of Sources/Signals/Signals.docc/Contract.md, numbered the same way.
@Suite struct ContractTests {
    // MARK: - 1. Glitch-free derived state

    @Test func combineLatestOfTwoMapsOfOneSourceEmitsOnceAndConsistently() {
        let a = MutableProperty(1)
        let pair = Property.combineLatest(a.map { $0 * 10 }, a.map { "\($0)" })
        let recorder = pair.record()
        a.value = 2
        a.value = 3
        recorder.assertValues([(10, "1"), (20, "2"), (30, "3")], by: { $0 == $1 })
        #expect(pair.value == (30, "3"))
    }

    @Test func deepDiamondEmitsOncePerChange() {
        let a = MutableProperty(0)
        let left = Property.combineLatest(a.map { $0 + 1 }, a.map { $0 * 2 }).map { $0 + $1 }
        let right = a.map { $0 - 1 }.map { $0 * 3 }
        let total = Property.combineLatest(left, right).map { l, r in "\(l)/\(r)" }
        let recorder = total.record()
        for value in 1...4 { a.value = value }
        let expected = (0...4).map { v in "\((v + 1) + v * 2)/\((v - 1) * 3)" }
        recorder.assertValues(expected)
    }

    @Test func unchangedBranchStillSettlesTheCombination() {
        let a = MutableProperty(1)
        let parity = a.map { $0 % 2 }.skipRepeats()
        let combined = Property.combineLatest(parity, a).map { "\($0):\($1)" }
        let recorder = combined.record()
        a.value = 3 // parity unchanged, a changed: one emission
        a.value = 4 // both changed: one emission
        a.value = 4 // root set again to the same value: the Equatable combination is
        // unchanged, so nothing is emitted (derived state emits only changes)
        recorder.assertValues(["1:1", "1:3", "0:4"])
    }

    @Test func nothingChangedMeansNothingEmitted() {
        let a = MutableProperty(1)
        let both = Property.combineLatest(a.map { $0 > 0 }.skipRepeats(), a.map { $0 > 100 }.skipRepeats())
        let recorder = both.signal.record()
        a.value = 2
        a.value = 3
        #expect(recorder.events.isEmpty)
        a.value = 200
        recorder.assertValues([(true, true)], by: { $0 == $1 })
    }

    @Test func independentSourcesEmitOncePerChangeOfEither() {
        let a = MutableProperty(1)
        let b = MutableProperty("x")
        let recorder = Property.combineLatest(a, b).record()
        a.value = 2
        b.value = "y"
        recorder.assertValues([(1, "x"), (2, "x"), (2, "y")], by: { $0 == $1 })
    }

    // MARK: - 2. FIFO reentrancy

    @Test func valueSentFromAnObserverIsQueuedBehindTheCurrentDelivery() {
        let (signal, input) = Signal<Int>.pipe()
        let log = Locked<[String]>([])
        signal.observe { value in
            log.append("first \(value)")
            if value == 1 {
                input.send(2)
                input.send(3)
                log.append("first sent 2 and 3")
            }
        }
        signal.observe { log.append("second \($0)") }
        input.send(1)
        #expect(
            log.value == [
                "first 1", "first sent 2 and 3", "second 1",
                "first 2", "second 2",
                "first 3", "second 3",
            ])
    }

    @Test func reentrantSendsThroughOperatorsKeepOrderWithoutDeadlock() {
        let (signal, input) = Signal<Int>.pipe()
        let doubled = signal.map { $0 * 2 }
        doubled.observe { if $0 < 8 { input.send($0) } }
        let recorder = doubled.record()
        input.send(1)
        recorder.assertValues([2, 4, 8])
    }

    @Test func propertySetFromItsOwnObserverIsDeliveredAfterwardsToEveryone() {
        let property = MutableProperty(0)
        let log = Locked<[String]>([])
        property.observe { value in
            log.append("a\(value)")
            if value == 1 { property.value = 2 }
        }
        property.observe { log.append("b\($0)") }
        property.value = 1
        #expect(log.value == ["a0", "b0", "a1", "b1", "a2", "b2"])
        #expect(property.value == 2)
    }

    @Test func reentrantValuesAreNeverDropped() {
        let (signal, input) = Signal<Int>.pipe()
        let received = Locked<[Int]>([])
        signal.observe { value in
            received.append(value)
            if value < 1000 { input.send(value + 1) }
        }
        input.send(0)
        #expect(received.value == Array(0...1000))
    }

    // MARK: - 3. Thread safety

    @Test func concurrentSendsAreDeliveredExactlyOnceAndNeverOverlap() {
        let (signal, input) = Signal<Int>.pipe()
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let received = Locked<[Int]>([])
        signal.observe { value in
            if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            received.append(value)
            inside.subtract(1, ordering: .acquiringAndReleasing)
        }
        let threads = 8
        let perThread = 5_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread { input.send(thread * perThread + index) }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(received.value.count == threads * perThread)
        #expect(Set(received.value).count == threads * perThread)
    }

    @Test func concurrentSendsKeepEachSendersOrder() {
        let (signal, input) = Signal<(Int, Int)>.pipe()
        let lastSeen = Locked([Int](repeating: -1, count: 4))
        let outOfOrder = Locked(0)
        signal.observe { thread, index in
            lastSeen.withLock { lastSeen in
                if index <= lastSeen[thread] { outOfOrder.increment() }
                lastSeen[thread] = index
            }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<5_000 { input.send((thread, index)) }
        }
        #expect(outOfOrder.value == 0)
        #expect(lastSeen.value == [4_999, 4_999, 4_999, 4_999])
    }

    @Test func concurrentPropertySetsEndWithTheLastDeliveredValueEqualToTheStoredOne() {
        let property = MutableProperty(0)
        let last = Locked(-1)
        let deliveries = Locked(0)
        property.observe { value in
            last.value = value
            deliveries.increment()
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 1...2_000 { property.value = thread * 10_000 + index }
        }
        #expect(deliveries.value == 1 + 4 * 2_000)
        #expect(last.value == property.value)
    }

    @Test func observingAndDisposingWhileOtherThreadsSendIsSafe() {
        let (signal, input) = Signal<Int>.pipe()
        let total = Atomic<Int>(0)
        let keeper = signal.observe { _ in total.add(1, ordering: .relaxed) }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<2_000 {
                if thread % 2 == 0 {
                    input.send(index)
                } else {
                    signal.observe { _ in }.dispose()
                }
            }
        }
        #expect(total.load(ordering: .relaxed) == 2 * 2_000)
        keeper.dispose()
    }

    // MARK: - 4. Lifetimes

    @Test func observerAddedDuringADeliveryDoesNotGetTheInFlightValue() {
        let (signal, input) = Signal<Int>.pipe()
        let late = Locked<[Int]>([])
        let added = Locked(false)
        signal.observe { _ in
            guard !added.testAndSet() else { return }
            signal.observe { late.append($0) }
        }
        input.send(1)
        input.send(2)
        #expect(late.value == [2])
    }

    @Test func observerDisposedDuringADeliveryGetsNothingMoreNotEvenTheInFlightValue() {
        let (signal, input) = Signal<Int>.pipe()
        let victim = Locked<Disposable?>(nil)
        let received = Locked<[Int]>([])
        signal.observe { value in if value == 2 { victim.value?.dispose() } }
        victim.value = signal.observe { received.append($0) }
        input.send(1)
        input.send(2)
        input.send(3)
        #expect(received.value == [1])
    }

    @Test func observerDisposingItselfFreesItsClosureAfterTheDelivery() {
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        let subscription = Locked<Disposable?>(nil)
        do {
            let token = Token()
            tracker.track(token, "closure capture")
            subscription.value = signal.observe { _ in
                _ = token
                subscription.value?.dispose()
            }
        }
        input.send(1)
        tracker.assertAllReleased()
        #expect(subscription.value?.isDisposed == true)
    }

    @Test func aSignalWithNoInputAndNoObserversIsFreed() {
        let tracker = ReleaseTracker()
        do {
            let (signal, input) = Signal<Int>.pipe()
            tracker.track(signal, "signal")
            tracker.track(input, "input")
        }
        tracker.assertAllReleased()
    }

    @Test func anUnobservedDerivedSignalLetsGoOfItsSource() {
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        do {
            let token = Token()
            tracker.track(token, "map closure capture")
            let mapped = signal.map { value -> Int in
                _ = token
                return value
            }
            tracker.track(mapped, "derived signal")
        }
        tracker.assertAllReleased()
        input.send(1)
    }

    @Test(.tags(.regression)) func aDerivedSignalDisposedDuringADeliveryIsFreedWhenItEnds() {
        // A value queued during the delivery carried the observers of then, the map's
        // link among them, and made them the snapshot again after the link was disposed:
        // the link and its closure stayed until the source delivered again.
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        let mapped: Disposable
        do {
            let token = Token()
            tracker.track(token, "map closure capture")
            mapped = signal.map { value -> Int in
                _ = token
                return value
            }.observe { _ in }
        }
        let once = Locked(false)
        let sender = signal.observe { _ in
            guard !once.value else { return }
            once.value = true
            input.send(2)
            mapped.dispose()
        }
        input.send(1)
        tracker.assertAllReleased()
        sender.dispose()
    }

    @Test func aDerivedChainIsFreedWhenItsLastObserverIsDisposed() {
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        var subscription: Disposable?
        do {
            let token = Token()
            tracker.track(token, "filter closure capture")
            subscription = signal.map { $0 + 1 }.filter { _ in
                _ = token
                return true
            }.scan(0, +).observe { _ in }
        }
        input.send(1)
        #expect(tracker.alive == ["filter closure capture"])
        subscription?.dispose()
        tracker.assertAllReleased()
    }

    @Test @MainActor func aBindingWhoseTargetIsGoneStopsAndFreesItsClosure() async {
        let property = MutableProperty(0)
        let tracker = ReleaseTracker()
        let bag = DisposeBag()
        var updates = 0
        do {
            let view = Token()
            let captured = Token()
            tracker.track(view, "target")
            tracker.track(captured, "closure capture")
            property.bind(to: view) { _, _ in
                _ = captured
                updates += 1
            }.dispose(in: bag)
        }
        #expect(updates == 1)
        #expect(tracker.alive == ["closure capture"])
        property.value = 1
        #expect(updates == 1)
        tracker.assertAllReleased()
        #expect(bag.liveCount == 0)
    }

    @Test func completionReleasesEveryObserverClosure() {
        let tracker = ReleaseTracker()
        let (signal, input) = Signal<Int>.pipe()
        let bag = DisposeBag()
        do {
            let token = Token()
            tracker.track(token, "observer capture")
            signal.observe { _ in _ = token }.dispose(in: bag)
        }
        input.sendCompleted()
        tracker.assertAllReleased()
    }

    @Test func completionFreesOperatorClosuresWhileTheSourceLivesOn() {
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        do {
            let token = Token()
            tracker.track(token, "map closure capture")
            signal.map { value -> Int in
                _ = token
                return value
            }.filter { $0 > 0 }.observe { _ in }
        }
        input.send(1)
        #expect(tracker.alive == ["map closure capture"])
        input.sendCompleted()
        tracker.assertAllReleased()
        withExtendedLifetime((signal, input)) {}
    }

    @Test func propertyGraphsHaveNoRetainCycles() {
        let tracker = ReleaseTracker()
        do {
            let source = MutableProperty(1)
            let other = MutableProperty("a")
            let derived = Property.combineLatest(source.map { $0 * 2 }.skipRepeats(), other).map { "\($0)\($1)" }
            let recorder = derived.record()
            source.value = 2
            recorder.assertValues(["2a", "4a"])
            tracker.track(source, "source")
            tracker.track(other, "other")
            tracker.track(derived, "derived")
            tracker.track(recorder, "recorder")
        }
        tracker.assertAllReleased()
    }

    @Test func freeingAMutablePropertyCompletesItsObservers() {
        var property: MutableProperty<Int>? = MutableProperty(1)
        let recorder = property!.signal.record()
        property?.value = 2
        property = nil
        recorder.assertEvents([.value(2), .completed])
    }
}

/// Any object to watch with a `ReleaseTracker`.
final class Token: Sendable {}
