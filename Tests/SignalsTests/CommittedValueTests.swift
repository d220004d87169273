import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

/// An observer added while a property's change is being delivered, or from another
/// thread, starts from the committed value and misses no later one.
@Suite struct CommittedValueTests {
    @Test(.tags(.regression)) func anObserverOfACombinationRegisteredMidDeliveryMissesNothing() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let sum = Property.combineLatest(a, b).map { $0 + $1 }
        let late = Locked<[Int]>([])
        let added = Locked(false)
        let keep = Locked<Disposable?>(nil)
        sum.signal.observe { value in
            guard !added.testAndSet() else { return }
            keep.value = sum.observe { late.append($0) }
            b.value = 5
        }
        a.value = 1
        #expect(late.value == [1, 6])
        #expect(keep.value != nil)
    }

    @Test(.tags(.regression)) func concurrentObserversOfADerivedPropertyEndOnTheLatestValue() {
        let source = MutableProperty(0)
        let doubled = source.map { $0 * 2 }
        let lastSeen = Locked<[Int]>([])
        let subscriptions = Locked<[Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            if index == 0 {
                for value in 1...2_000 { source.value = value }
            } else {
                for _ in 0..<50 {
                    let slot = Locked(-1)
                    let subscription = doubled.observe { value in slot.value = value }
                    subscriptions.append(subscription)
                    _ = slot
                }
                let slot = Locked(-1)
                let last = doubled.observe { value in slot.value = value }
                // The final value may still be on its way (the setter's thread delivers it):
                // wait for it, but not forever.
                let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
                while slot.value != 4_000, DispatchTime.now().uptimeNanoseconds < deadline {}
                lastSeen.append(slot.value)
                last.dispose()
            }
        }
        #expect(lastSeen.value == [4_000, 4_000, 4_000])
        subscriptions.value.forEach { $0.dispose() }
    }

    // A combination whose change is settled after the section that starts its delivery
    // (compared inputs, a mapped pair) commits it as the delivery ends; these observers
    // register before that.

    @Test func anObserverAddedByTheMapOfAPairStartsFromTheCommittedValueAndCatchesUp() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let seen = Locked<[Int]>([])
        let keep = Locked<Disposable?>(nil)
        let holder = Locked<Property<Int>?>(nil)
        let sum = Property.combineLatest(a, b).map { pair -> Int in
            let total = pair.0 + pair.1
            // The transform runs before the change is known to anyone.
            if total == 1, keep.value == nil, let sum = holder.value {
                keep.value = sum.observe { seen.append($0) }
            }
            return total
        }
        holder.value = sum
        a.value = 1
        b.value = 2
        #expect(seen.value == [0, 1, 3])
        keep.value?.dispose()
    }

    @Test func anObserverAddedWhileTheChangeIsDeliveredStartsFromItAlone() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let sum = Property.combineLatest(a, b).map { $0 + $1 }
        let inner = Locked<[Int]>([])
        let keep = Locked<Disposable?>(nil)
        let outer = sum.observe { value in
            guard value == 1, keep.value == nil else { return }
            keep.value = sum.observe { inner.append($0) }
        }
        a.value = 1
        b.value = 2
        #expect(inner.value == [1, 3])
        outer.dispose()
        keep.value?.dispose()
    }

    @Test(arguments: [false, true])
    func anObserverAddedFromAnotherThreadMeanwhileGetsTheChangeAfterTheValueItStartedFrom(
        whileDelivering: Bool
    ) {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let seen = Locked<[Int]>([])
        let keep = Locked<Disposable?>(nil)
        let holder = Locked<Property<Int>?>(nil)
        // Registers from another thread and waits until it has registered: the delivery is
        // under way on this thread meanwhile, its change not committed yet.
        let registerElsewhere: @Sendable () -> Void = {
            guard keep.value == nil, let sum = holder.value else { return }
            let registered = DispatchSemaphore(value: 0)
            Thread {
                keep.value = sum.observe { seen.append($0) }
                registered.signal()
            }.start()
            registered.wait()
        }
        let sum = Property.combineLatest(a, b).map { pair -> Int in
            if !whileDelivering, pair.0 + pair.1 == 1 { registerElsewhere() }
            return pair.0 + pair.1
        }
        holder.value = sum
        let outer = sum.signal.observe { value in if whileDelivering, value == 1 { registerElsewhere() } }
        a.value = 1
        #expect(seen.value == [0, 1])
        b.value = 2
        #expect(seen.value == [0, 1, 3])
        outer.dispose()
        keep.value?.dispose()
    }

    @Test func anObserverAddedWhenNothingChangesGetsNoCatchUp() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let seen = Locked<[Bool]>([])
        let keep = Locked<Disposable?>(nil)
        let holder = Locked<Property<Bool>?>(nil)
        let isEven = Property.combineLatest(a, b).map { pair -> Bool in
            if pair.0 == 2, keep.value == nil, let isEven = holder.value {
                keep.value = isEven.observe { seen.append($0) }
            }
            return (pair.0 + pair.1).isMultiple(of: 2)
        }
        holder.value = isEven
        a.value = 2
        #expect(seen.value == [true])
        b.value = 1
        #expect(seen.value == [true, false])
        keep.value?.dispose()
    }

    @Test func anObserverDisposedBeforeItCatchesUpGetsNothingMore() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let seen = Locked<[Int]>([])
        let keep = Locked<Disposable?>(nil)
        let holder = Locked<Property<Int>?>(nil)
        let sum = Property.combineLatest(a, b).map { pair -> Int in
            if pair.0 == 1, keep.value == nil, let sum = holder.value {
                let subscription = sum.observe { seen.append($0) }
                subscription.dispose()
                keep.value = subscription
            }
            return pair.0 + pair.1
        }
        holder.value = sum
        a.value = 1
        b.value = 2
        #expect(seen.value == [0])
    }
}
