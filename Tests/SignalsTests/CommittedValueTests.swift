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
}
