import Signals
import SignalsTesting
import Testing

@Suite struct CombineLatestTests {
    @Test func typeIsInferredFromArguments() {
        let (a, _) = Signal<Int>.pipe()
        let (b, _) = Signal<String>.pipe()
        let combined = Signal.combineLatest(a, b)
        let typed: Signal<(Int, String)> = combined
        _ = typed
    }

    @Test func emitsNothingUntilBothHaveSent() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<String>.pipe()
        let recorder = Signal.combineLatest(a, b).record()
        sendA.send(1)
        sendA.send(2)
        #expect(recorder.values.isEmpty)
        sendB.send("x")
        recorder.assertValues([(2, "x")], by: ==)
    }

    @Test func emitsLatestPairWheneverEitherSends() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<String>.pipe()
        let recorder = Signal.combineLatest(a, b).record()
        sendA.send(1)
        sendB.send("x")
        sendA.send(2)
        sendB.send("y")
        sendB.send("z")
        sendA.send(3)
        recorder.assertValues([(1, "x"), (2, "x"), (2, "y"), (2, "z"), (3, "z")], by: ==)
    }

    @Test func completesOnlyWhenBothComplete() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.combineLatest(a, b).record(exhaustive: true)
        sendA.send(1)
        sendB.send(10)
        recorder.expect([.value((1, 10))], by: ==)
        sendA.sendCompleted()
        recorder.expectNoMoreEvents()
        // The completed side keeps its latest value for pairing.
        sendB.send(20)
        recorder.expect([.value((1, 20))], by: ==)
        sendB.sendCompleted()
        recorder.expectCompleted()
        recorder.finish()
    }

    @Test func completesWhenBothCompleteEvenWithoutValues() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.combineLatest(a, b).record()
        sendB.sendCompleted()
        #expect(!recorder.isCompleted)
        sendA.send(1)
        sendA.sendCompleted()
        #expect(recorder.isCompleted)
        #expect(recorder.values.isEmpty)
    }

    @Test func sideThatCompletedWithoutValueMeansNoEmissions() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.combineLatest(a, b).record()
        sendB.sendCompleted()
        sendA.send(1)
        sendA.send(2)
        #expect(recorder.values.isEmpty)
        #expect(!recorder.isCompleted)
    }

    @Test func sameSignalTwice() {
        let (a, sendA) = Signal<Int>.pipe()
        // `combineLatest` subscribes to its sources in argument order when it is first
        // observed (as RxSwift does), so each value of `a` reaches the left side first.
        let recorder = Signal.combineLatest(a, a.map { $0 * 10 }).record()
        sendA.send(1)
        sendA.send(2)
        recorder.assertValues([(1, 10), (2, 10), (2, 20)], by: ==)
    }

    @Test func valuesAfterCompletionAreDropped() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.combineLatest(a, b).record()
        sendA.send(1)
        sendB.send(2)
        sendA.sendCompleted()
        sendB.sendCompleted()
        sendA.send(3)
        sendB.send(4)
        recorder.assertValues([(1, 2)], by: ==)
        #expect(recorder.isCompleted)
        #expect(recorder.events.count == 2)
    }
}
