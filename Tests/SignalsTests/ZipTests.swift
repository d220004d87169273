import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

@Suite struct ZipTests {
    @Test func typeIsInferredFromArguments() {
        let (a, _) = Signal<Int>.pipe()
        let (b, _) = Signal<String>.pipe()
        let zipped = Signal.zip(a, b)
        let typed: Signal<(Int, String)> = zipped
        _ = typed
    }

    @Test func pairsNthValueWithNthValue() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<String>.pipe()
        let recorder = Signal.zip(a, b).record()
        sendA.send(1)
        sendA.send(2)
        sendA.send(3)
        #expect(recorder.values.isEmpty)
        sendB.send("a")
        recorder.assertValues([(1, "a")], by: ==)
        sendB.send("b")
        sendB.send("c")
        sendB.send("d")
        recorder.assertValues([(1, "a"), (2, "b"), (3, "c")], by: ==)
        sendA.send(4)
        recorder.assertValues([(1, "a"), (2, "b"), (3, "c"), (4, "d")], by: ==)
    }

    @Test func interleavedSendsPairInOrder() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.zip(a, b).record()
        sendA.send(1)
        sendB.send(10)
        sendB.send(20)
        sendA.send(2)
        sendA.send(3)
        sendB.send(30)
        recorder.assertValues([(1, 10), (2, 20), (3, 30)], by: ==)
    }

    @Test func completesWhenOneCompletedAndItsQueueIsEmpty() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.zip(a, b).record(exhaustive: true)
        sendA.send(1)
        sendB.send(10)
        recorder.expect([.value((1, 10))], by: ==)
        sendA.sendCompleted()
        // `a` completed with nothing unpaired: no more pairs are possible.
        recorder.expectCompleted()
        sendB.send(20)
        recorder.finish()
    }

    @Test func waitsForPartnersOfQueuedValuesBeforeCompleting() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.zip(a, b).record(exhaustive: true)
        sendA.send(1)
        sendA.send(2)
        sendA.sendCompleted()
        recorder.expectNoMoreEvents()
        sendB.send(10)
        recorder.expect([.value((1, 10))], by: ==)
        recorder.expectNoMoreEvents()
        sendB.send(20)
        recorder.expect([.value((2, 20))], by: ==)
        recorder.expectCompleted()
        recorder.finish()
    }

    @Test func otherSideCompletingWithUnpairedValuesCompletesWhenTheyCannotBePaired() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.zip(a, b).record()
        sendA.send(1)
        sendA.send(2)
        sendA.send(3)
        sendB.send(10)
        // `b` completes with an empty queue while `a` still has 2 and 3 waiting.
        sendB.sendCompleted()
        recorder.assertValues([(1, 10)], by: ==)
        #expect(recorder.isCompleted)
    }

    @Test func doesNotCompleteWhileCompletedSideStillHasQueuedValues() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.zip(a, b).record()
        sendB.send(10)
        sendB.sendCompleted()
        #expect(!recorder.isCompleted)
        sendA.send(1)
        recorder.assertValues([(1, 10)], by: ==)
        #expect(recorder.isCompleted)
    }

    @Test func completesAtOnceWhenASourceIsAlreadyCompleted() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        sendA.sendCompleted()
        let recorder = Signal.zip(a, b).record()
        sendB.send(1)
        #expect(recorder.isCompleted)
        #expect(recorder.values.isEmpty)
    }

    @Test func zipWithItself() {
        let (a, sendA) = Signal<Int>.pipe()
        let recorder = Signal.zip(a, a.map { $0 * 2 }).record()
        sendA.send(1)
        sendA.send(2)
        recorder.assertValues([(1, 2), (2, 4)], by: ==)
    }

    @Test(.tags(.regression)) func anObserverAddedWhileAZipCompletesGetsTheCompletion() {
        let (first, firstInput) = Signal<Int>.pipe()
        let (second, secondInput) = Signal<Int>.pipe()
        let zipped = Signal.zip(first, second)
        let lateCompleted = Locked(false)
        let keep = Locked<Disposable?>(nil)
        zipped.observe { _ in
            firstInput.sendCompleted()
            keep.value = zipped.observeCompleted { lateCompleted.value = true }
        }
        firstInput.send(1)
        secondInput.send(10)
        #expect(lateCompleted.value)
        #expect(keep.value?.isDisposed == true)
    }
}
