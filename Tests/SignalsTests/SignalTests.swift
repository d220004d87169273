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
}
