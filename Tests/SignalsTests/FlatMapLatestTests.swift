import Signals
import SignalsTesting
import Testing

@Suite struct FlatMapLatestTests {
    /// Two inner pipes selected by the outer value.
    private final class Inners: Sendable {
        let pipes = (0..<3).map { _ in Signal<String>.pipe() }
        let mapped = Locked([0, 0, 0])
        let transforms = Locked<[Int]>([])

        func signal(_ index: Int) -> Signal<String> {
            transforms.append(index)
            return pipes[index].output.map { [mapped] value in
                mapped.withLock { $0[index] += 1 }
                return value
            }
        }
        func send(_ index: Int, _ value: String) { pipes[index].input.send(value) }
        func complete(_ index: Int) { pipes[index].input.sendCompleted() }
    }

    @Test func forwardsValuesOfCurrentInner() {
        let inners = Inners()
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { inners.signal($0) }.record()
        inners.send(0, "ignored: not selected yet")
        select.send(0)
        inners.send(0, "a")
        inners.send(0, "b")
        recorder.assertValues(["a", "b"])
        #expect(inners.transforms.value == [0])
    }

    @Test func onlyNewestInnerForwards() {
        let inners = Inners()
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { inners.signal($0) }.record()
        select.send(0)
        inners.send(0, "0a")
        select.send(1)
        inners.send(0, "0b")
        inners.send(1, "1a")
        inners.send(0, "0c")
        inners.send(1, "1b")
        recorder.assertValues(["0a", "1a", "1b"])
    }

    @Test func oldInnerIsUnsubscribed() {
        let inners = Inners()
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { inners.signal($0) }.record()
        select.send(0)
        inners.send(0, "x")
        #expect(inners.mapped.value[0] == 1)
        select.send(1)
        inners.send(0, "y")
        inners.send(0, "z")
        // The inner (a `map`) has lost its only observer, so it stopped listening.
        #expect(inners.mapped.value[0] == 1)
        inners.send(1, "w")
        #expect(inners.mapped.value[1] == 1)
        recorder.assertValues(["x", "w"])
    }

    @Test func reselectingSameSourceCreatesFreshInner() {
        let inners = Inners()
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { inners.signal($0) }.record()
        select.send(0)
        select.send(0)
        inners.send(0, "once")
        // Only one subscription is live: the value arrives once.
        recorder.assertValues(["once"])
        #expect(inners.mapped.value[0] == 1)
        #expect(inners.transforms.value == [0, 0])
    }

    @Test func completesWhenOuterAndCurrentInnerCompleted() {
        let inners = Inners()
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { inners.signal($0) }.record(exhaustive: true)
        select.send(0)
        select.sendCompleted()
        recorder.expectNoMoreEvents()
        inners.send(0, "still going")
        recorder.expect("still going")
        inners.complete(0)
        recorder.expectCompleted()
        recorder.finish()
    }

    @Test func innerCompletionAloneDoesNotComplete() {
        let inners = Inners()
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { inners.signal($0) }.record()
        select.send(0)
        inners.complete(0)
        #expect(!recorder.isCompleted)
        select.send(1)
        inners.send(1, "next")
        recorder.assertEvents([.value("next")])
        select.sendCompleted()
        #expect(!recorder.isCompleted)
        inners.complete(1)
        recorder.assertEvents([.value("next"), .completed])
    }

    @Test func outerCompletionAfterInnerCompletedCompletesAtOnce() {
        let inners = Inners()
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { inners.signal($0) }.record()
        select.send(0)
        inners.send(0, "a")
        inners.complete(0)
        select.sendCompleted()
        recorder.assertEvents([.value("a"), .completed])
    }

    @Test func outerCompletionWithoutAnyInnerCompletesAtOnce() {
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { _ in Signal<String>.pipe().output }.record()
        select.sendCompleted()
        recorder.assertEvents([.completed])
    }

    @Test func completionOfReplacedInnerIsIgnored() {
        let inners = Inners()
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { inners.signal($0) }.record()
        select.send(0)
        select.send(1)
        select.sendCompleted()
        inners.complete(0)
        #expect(!recorder.isCompleted, "an old inner's completion must not end the output")
        inners.send(1, "b")
        inners.complete(1)
        recorder.assertEvents([.value("b"), .completed])
    }

    @Test func alreadyCompletedInnerCountsAsDone() {
        let (outer, select) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { value -> Signal<Int> in
            let (signal, input) = Signal<Int>.pipe()
            input.sendCompleted()
            return signal
        }.record()
        select.send(1)
        #expect(!recorder.isCompleted)
        select.sendCompleted()
        recorder.assertEvents([.completed])
    }

    @Test func innerEmittingSynchronouslyOnSubscriptionViaPrefix() {
        let (outer, select) = Signal<Int>.pipe()
        let (never, _) = Signal<Int>.pipe()
        let recorder = outer.flatMapLatest { value in never.prefix(value: value * 10) }.record()
        select.send(1)
        select.send(2)
        recorder.assertValues([10, 20])
    }
}
