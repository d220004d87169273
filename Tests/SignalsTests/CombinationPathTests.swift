import Signals
import SignalsTesting
import Testing

/// `Property.combineLatest` of two inputs takes its own specialized path; of three or more,
/// the parameter pack's. Both must mean the same.
@Suite struct CombinationPathTests {
    /// A class, so not `Equatable`: every change of it counts.
    final class Box: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test func thePairAndTheTripleOfOneSourceEmitOncePerChangeAndSkipEqualCombinations() {
        let source = MutableProperty(1)
        let parity = source.map { $0 % 2 }
        let pair = Property.combineLatest(parity, source.map { $0 > 0 }).signal.record()
        let triple = Property.combineLatest(parity, source.map { $0 > 0 }, Property(value: "x")).signal.record()
        source.value = 3 // (1, true) again: neither changes
        source.value = 4 // one change of the source, one emission
        source.value = -2 // both inputs change at once: still one emission
        pair.assertValues([(0, true), (0, false)], by: ==)
        triple.assertValues([(0, true, "x"), (0, false, "x")], by: ==)
    }

    @Test func inputsThatAreNotEquatableEmitEveryChangeOnBothPaths() {
        let boxes = MutableProperty(Box(1))
        let other = MutableProperty(Box(10))
        let pair = Property.combineLatest(boxes, other).signal.record()
        let triple = Property.combineLatest(boxes, other, other).signal.record()
        boxes.value = Box(1) // an equal number in a new box: a change all the same
        other.value = Box(20)
        #expect(pair.values.map { $0.number + $1.number } == [11, 21])
        #expect(triple.values.map { $0.number + $1.number + $2.number } == [21, 41])
    }

    @Test func neitherPathKeepsAnInputAliveWhileItsCombinationIsObserved() {
        weak var firstOfPair: MutableProperty<Int>?
        weak var firstOfTriple: MutableProperty<Int>?
        let second = MutableProperty(0)
        var pairInput: MutableProperty<Int>? = MutableProperty(1)
        var tripleInput: MutableProperty<Int>? = MutableProperty(1)
        firstOfPair = pairInput
        firstOfTriple = tripleInput
        let pair = Property.combineLatest(pairInput!, second).signal.record()
        let triple = Property.combineLatest(tripleInput!, second, second).signal.record()
        pairInput = nil
        tripleInput = nil
        #expect(firstOfPair == nil)
        #expect(firstOfTriple == nil)
        second.value = 5
        pair.assertValues([(1, 5)], by: ==)
        triple.assertValues([(1, 5, 5)], by: ==)
    }
}
