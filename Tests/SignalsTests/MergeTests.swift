import Signals
import SignalsTesting
import Testing

@Suite struct MergeTests {
    @Test func mergeForwardsValuesOfAllSignalsAsTheyArrive() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let (c, sendC) = Signal<Int>.pipe()
        let recorder = Signal.merge(a, b, c).record()
        sendA.send(1)
        sendC.send(3)
        sendB.send(2)
        sendA.send(11)
        recorder.assertValues([1, 3, 2, 11])
    }

    @Test func mergeCompletesOnlyWhenAllHaveCompleted() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let (c, sendC) = Signal<Int>.pipe()
        let recorder = Signal.merge(a, b, c).record(exhaustive: true)
        sendA.sendCompleted()
        sendB.send(2)
        sendB.sendCompleted()
        recorder.expect(2)
        recorder.expectNoMoreEvents()
        sendC.send(3)
        recorder.expect(3)
        recorder.expectNoMoreEvents()
        sendC.sendCompleted()
        recorder.expectCompleted()
        sendA.send(99)
        recorder.finish()
    }

    @Test func completedSourcesStopContributingButOthersContinue() {
        let (a, sendA) = Signal<String>.pipe()
        let (b, sendB) = Signal<String>.pipe()
        let recorder = Signal.merge(a, b).record()
        sendA.send("a1")
        sendA.sendCompleted()
        sendA.send("a2")
        sendB.send("b1")
        recorder.assertValues(["a1", "b1"])
        #expect(!recorder.isCompleted)
    }

    @Test func mergeOfSingleSignalMirrorsIt() {
        let (a, sendA) = Signal<Int>.pipe()
        let recorder = Signal.merge(a).record()
        sendA.send(1)
        sendA.sendCompleted()
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func mergeOfNoSignalsCompletesAtOnce() {
        let merged = Signal<Int>.merge([])
        let recorder = merged.record()
        recorder.assertEvents([.completed])
    }

    @Test func mergeArrayOverload() {
        let pipes = (0..<4).map { _ in Signal<Int>.pipe() }
        let recorder = Signal.merge(pipes.map(\.output)).record()
        for (index, pipe) in pipes.enumerated() { pipe.input.send(index) }
        for pipe in pipes { pipe.input.sendCompleted() }
        recorder.assertEvents([.value(0), .value(1), .value(2), .value(3), .completed])
    }

    @Test func mergeWithAlreadyCompletedSources() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        sendA.sendCompleted()
        let recorder = Signal.merge(a, b).record()
        sendB.send(1)
        recorder.assertEvents([.value(1)])
        sendB.sendCompleted()
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func mergeOfAllAlreadyCompletedSourcesCompletesAtOnce() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        sendA.sendCompleted()
        sendB.sendCompleted()
        let recorder = Signal.merge(a, b).record()
        recorder.assertEvents([.completed])
    }

    @Test func mergeKeepsPerSourceOrder() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let recorder = Signal.merge(a, b).record()
        for i in 0..<5 {
            sendA.send(i)
            sendB.send(100 + i)
        }
        recorder.assertValues([0, 100, 1, 101, 2, 102, 3, 103, 4, 104])
    }
}
