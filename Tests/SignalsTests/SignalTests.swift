import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

@Suite struct SignalTests {
    @Test func observersReceiveValuesInOrder() {
        let (signal, input) = Signal<Int>.pipe()
        let first = signal.record()
        let second = signal.record()
        input.send(1)
        input.send(2)
        first.assertValues([1, 2])
        second.assertValues([1, 2])
    }

    @Test func completionStopsDeliveryAndLateObserversCompleteAtOnce() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.record()
        input.send(1)
        input.sendCompleted()
        input.send(2)
        recorder.assertEvents([.value(1), .completed])
        let lateCompleted = Locked(false)
        let late = signal.observeCompleted { lateCompleted.value = true }
        #expect(lateCompleted.value)
        #expect(late.isDisposed)
        let lateValues = signal.record()
        input.send(3)
        lateValues.assertEvents([.completed])
    }

    @Test func freeingTheInputCompletesTheSignal() {
        var (signal, input): (Signal<Int>, Signal<Int>.Input?) = Signal<Int>.pipe()
        let recorder = signal.record()
        input?.send(1)
        input = nil
        recorder.assertEvents([.value(1), .completed])
        _ = signal
    }

    @Test func disposedObserverReceivesNothingMore() {
        let (signal, input) = Signal<Int>.pipe()
        let received = Locked<[Int]>([])
        let subscription = signal.observe { received.append($0) }
        input.send(1)
        subscription.dispose()
        #expect(subscription.isDisposed)
        input.send(2)
        #expect(received.value == [1])
    }

    @Test func observeReturnsAPlainDisposable() {
        let (signal, _) = Signal<Int>.pipe()
        let disposable: Disposable = signal.observe { _ in }
        var optional: Disposable? = disposable
        optional?.dispose()
        optional = nil
        #expect(disposable.isDisposed)
    }

    @Test(.tags(.regression)) func anObserverAddedByACompletionHandlerIsCompletedAtOnce() {
        let (first, firstInput) = Signal<Int>.pipe()
        let (second, _) = Signal<Int>.pipe()
        let zipped = Signal.zip(first, second)
        let nested = Locked(false)
        zipped.observeCompleted {
            zipped.observeCompleted { nested.value = true }
        }
        firstInput.sendCompleted()
        #expect(nested.value)
    }

    @Test(.tags(.regression)) func aLateObserverQueuedBehindTheCompletionLeavesNoObserverBehind() {
        // Added while the completion waits behind the delivery in progress, the late
        // observer gets it after that delivery, in turn. Its catch-up was queued with the
        // observers of that moment and made them the snapshot again once the completion
        // had let them go, so the core kept `map`'s closure for as long as it lived.
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        do {
            let token = Token()
            tracker.track(token, "map closure capture")
            signal.map { value -> Int in
                _ = token
                return value
            }.observe { _ in }
        }
        let late = Locked<Recorder<Int>?>(nil)
        let sender = signal.observe { _ in
            input.sendCompleted()
            late.value = signal.record()
            late.value?.assertEvents([])
        }
        input.send(1)
        late.value?.assertEvents([.completed])
        #expect(late.value != nil)
        tracker.assertAllReleased()
        sender.dispose()
        withExtendedLifetime(signal) {}
    }

    @Test(.tags(.regression)) func anObserverRemovedDuringALongBurstIsFreedBeforeTheBurstEnds() {
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        let victim = Locked<Disposable?>(nil)
        do {
            let token = Token()
            tracker.track(token, "victim capture")
            victim.value = signal.observe { _ in _ = token }
        }
        let aliveMidBurst = Locked<[String]>(["not checked"])
        signal.observe { value in
            if value < 200 { input.send(value + 1) }
            if value == 10 { victim.value?.dispose() }
            if value == 150 { aliveMidBurst.value = tracker.alive }
        }
        input.send(0)
        #expect(aliveMidBurst.value.isEmpty)
    }
}
