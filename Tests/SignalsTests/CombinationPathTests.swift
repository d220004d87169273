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

    /// Combinations of `MutableProperty`s emit once per set and never a mix of old and new,
    /// whether the roots are distinct, repeated, or reach the combination through what is
    /// derived from them. Each case has roots of its own, so that no other observer takes a
    /// root's lead (`invalidate`) for it: skipping the lead for distinct roots, tried once
    /// for speed, failed the repeated case.
    @Test func combinationsOfRootsEmitOncePerSetHoweverTheRootsAreShared() {
        func roots() -> (MutableProperty<Int>, MutableProperty<Int>, MutableProperty<Int>) {
            (MutableProperty(0), MutableProperty(0), MutableProperty(0))
        }
        func change(_ a: MutableProperty<Int>, _ b: MutableProperty<Int>, _ c: MutableProperty<Int>) {
            a.value = 1
            b.value = 2
            withBatchedChanges {
                a.value = 3
                b.value = 4
                c.value = 5
            }
        }
        let (a1, b1, c1) = roots()
        let pair = Property.combineLatest(a1, b1).map { [$0, $1] }.signal.record()
        change(a1, b1, c1)
        pair.assertValues([[1, 0], [1, 2], [3, 4]])
        let (a2, b2, c2) = roots()
        let three = Property.combineLatest(a2, b2, c2).signal.record()
        change(a2, b2, c2)
        three.assertValues([(1, 0, 0), (1, 2, 0), (3, 4, 5)], by: ==)
        let (a3, b3, c3) = roots()
        let list = Property.combineLatest([a3, b3, c3]).signal.record()
        change(a3, b3, c3)
        list.assertValues([[1, 0, 0], [1, 2, 0], [3, 4, 5]])
        let (a4, b4, c4) = roots()
        let twice = Property.combineLatest(a4, a4).signal.record()
        change(a4, b4, c4)
        twice.assertValues([(1, 1), (3, 3)], by: ==)
        let (a5, b5, c5) = roots()
        let twiceInThree = Property.combineLatest(a5, b5, a5).signal.record()
        change(a5, b5, c5)
        twiceInThree.assertValues([(1, 0, 1), (1, 2, 1), (3, 4, 3)], by: ==)
        let (a6, b6, c6) = roots()
        let twiceInList = Property.combineLatest([a6, a6]).signal.record()
        change(a6, b6, c6)
        twiceInList.assertValues([[1, 1], [3, 3]])
        let (a7, b7, c7) = roots()
        let withDerived = Property.combineLatest(a7, a7.map { $0 * 10 }).signal.record()
        change(a7, b7, c7)
        withDerived.assertValues([(1, 10), (3, 30)], by: ==)
    }

    /// Two combinations of distinct roots that share one, combined again: a set of the
    /// shared root reaches both before the outer combination emits (a review's case, which
    /// skipping the roots' leads broke: it emitted (1, 0) against (0, 0) first).
    @Test func aDiamondOfTwoCombinationsSharingARootEmitsOnce() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let c = MutableProperty(0)
        let left = Property.combineLatest(a, b)
        let right = Property.combineLatest(a, c)
        let shared = Property.combineLatest(left, right).map { left, right in [left.0, right.0] }.signal.record()
        a.value = 1
        b.value = 2 // left changes, its `a` does not: an equal array, not notified
        a.value = 3
        shared.assertValues([[1, 1], [3, 3]])
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

    /// A root whose first observer is the combination alone hands it a set in one call (the
    /// pair path); one observed before the combination, or by two combinations, takes the
    /// two events apart. Every way means the same emissions.
    @Test func aSetMeansOneEmissionWhetherTheCombinationIsARootsFirstObserverOrNot() {
        func emissions(observingFirst: Bool, twoCombinations: Bool) -> [[Int]] {
            let a = MutableProperty(0)
            let b = MutableProperty(0)
            let seen = observingFirst ? a.observe { _ in } : nil
            let other = twoCombinations ? Property.combineLatest(a, b).signal.record() : nil
            let sums = Property.combineLatest(a, b).map { [$0, $1] }.signal.record()
            a.value = 1
            b.value = 2
            a.value = 1 // equal: not notified
            withBatchedChanges {
                a.value = 3
                b.value = 4
            }
            withExtendedLifetime((seen, other)) {}
            return sums.values
        }
        for observingFirst in [false, true] {
            for twoCombinations in [false, true] {
                #expect(
                    emissions(observingFirst: observingFirst, twoCombinations: twoCombinations)
                        == [[1, 0], [1, 2], [3, 4]], "observed first: \(observingFirst), two: \(twoCombinations)")
            }
        }
    }

    /// A set made from inside the combination's own delivery waits for it to end (the pair
    /// path finds it delivering) and then emits in order, the newest combination last; a
    /// late observer starts from the newest.
    @Test func aSetFromInsideTheCombinationsDeliveryComesAfterIt() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let pair = Property.combineLatest(a, b)
        let echo = pair.observe { first, second in
            if first == 1 && second == 0 { b.value = 10 }
        }
        let recorded = pair.signal.record()
        a.value = 1
        recorded.assertValues([(1, 0), (1, 10)], by: ==)
        pair.record().assertValues([(1, 10)], by: ==)
        withExtendedLifetime(echo) {}
    }

    /// Two threads setting the two inputs at once: whichever path each set takes, the last
    /// emission and a late observer's start are the final pair.
    @Test func setsOfBothInputsFromTwoThreadsEndAtTheFinalPair() async {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let pair = Property.combineLatest(a, b)
        let recorded = pair.signal.record()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for value in 1...2_000 { a.value = value } }
            group.addTask { for value in 1...2_000 { b.value = -value } }
        }
        #expect(recorded.values.last.map { $0 == (2_000, -2_000) } == true)
        #expect(recorded.values.count <= 4_000)
        pair.record().assertValues([(2_000, -2_000)], by: ==)
    }

    /// `Property.combineLatest(a, b).map(f)` is one combination of `a` and `b` (contract
    /// 1.9a): it must mean what a map of the pair means. The reference is that: the pair's
    /// property, then a map of it (`unfusedMap`, through the `map` of any value). Inputs
    /// compared (`Int`) or not (`Box`), results compared or not, over a seeded random run
    /// of sets and batches.
    @Test func aMapOfACombinedPairMeansWhatAMapOfAnyPairMeans() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let boxA = MutableProperty(Box(0))
        let boxB = MutableProperty(Box(0))
        let pair = Property.combineLatest(a, b)
        let boxPair = Property.combineLatest(boxA, boxB)
        let parity = pair.map { ($0 &+ $1) % 3 }.signal.record()
        let referenceParity = unfusedMap(pair) { ($0.0 &+ $0.1) % 3 }.signal.record()
        let boxes = pair.map { Box($0 &* 10 &+ $1) }
        let boxed = boxes.signal.record()
        let referenceBoxed = unfusedMap(pair) { Box($0.0 &* 10 &+ $0.1) }.signal.record()
        let boxSums = boxPair.map { ($0.number &+ $1.number) % 3 }.signal.record()
        let referenceBoxSums = unfusedMap(boxPair) { ($0.0.number &+ $0.1.number) % 3 }.signal.record()
        let reboxed = boxPair.map { Box($0.number &* 10 &+ $1.number) }.signal.record()
        let referenceReboxed = unfusedMap(boxPair) { Box($0.0.number &* 10 &+ $0.1.number) }.signal.record()
        var random = SplitMix64(seed: 32)
        for step in 0..<400 {
            let value = step < 4 ? [1, 2, 2, 4][step] : Int(random.next() % 4)
            switch step < 4 ? [0, 1, 1, 1][step] : Int(random.next() % 3) {
            case 0:
                a.value = value
                boxA.value = Box(value)
            case 1:
                b.value = value
                boxB.value = Box(value)
            default:
                withBatchedChanges {
                    a.value = value
                    b.value = value &+ 1
                    boxA.value = Box(value)
                    boxB.value = Box(value &+ 1)
                }
            }
            #expect(boxes.value.number == a.value &* 10 &+ b.value)
        }
        // The first steps by hand: a = 1 (sum 1), b = 2 (3, so 0), b = 2 again (an equal
        // pair: nothing), b = 4 (5, so 2). Boxes are never equal: b = 2 again counts there,
        // and its sum (0) is then equal to the last.
        #expect(Array(parity.values.prefix(3)) == [1, 0, 2])
        #expect(Array(boxed.values.prefix(3).map(\.number)) == [10, 12, 14])
        #expect(Array(boxSums.values.prefix(3)) == [1, 0, 2])
        #expect(Array(reboxed.values.prefix(4).map(\.number)) == [10, 12, 12, 14])
        #expect(parity.values == referenceParity.values)
        #expect(boxed.values.map(\.number) == referenceBoxed.values.map(\.number))
        #expect(boxSums.values == referenceBoxSums.values)
        #expect(reboxed.values.map(\.number) == referenceReboxed.values.map(\.number))
        // An equal pair reaches neither Int map; an equal result reaches only the others.
        #expect(parity.values.count < boxed.values.count)
        #expect(boxed.values.count < reboxed.values.count)
        #expect(boxSums.values.count < reboxed.values.count)
        withExtendedLifetime((a, b, boxA, boxB)) {}
    }

    /// The map of a pair keeps the pair's inputs, not the pair: released, the pair is no
    /// longer called, and the map follows on.
    @Test func aMapOfACombinedPairOutlivesThePairAndKeepsItsInputs() {
        weak var releasedPair: Property<(Int, Int)>?
        weak var releasedInput: MutableProperty<Int>?
        var input: MutableProperty<Int>? = MutableProperty(1)
        let other = MutableProperty(2)
        var pair: Property<(Int, Int)>? = Property.combineLatest(input!, other)
        let built = Locked(0)
        let sum = pair!.map { first, second in
            _ = built.increment()
            return first &+ second
        }
        let sums = sum.signal.record()
        let builtAtStart = built.value
        releasedPair = pair
        releasedInput = input
        pair = nil
        #expect(releasedPair == nil)
        input?.value = 10
        input = nil
        #expect(releasedInput != nil)
        other.value = 20
        sums.assertValues([12, 30])
        #expect(sum.value == 30)
        // Once per change and once per read: the pair is not in between.
        #expect(built.value - builtAtStart == 3)
    }

    /// What holds only a pair's node (its `currentAndChanges` before it is observed) keeps
    /// no input's property: a `MutableProperty` nobody holds is freed, as before the pair
    /// kept how it was made.
    @Test func aPairsUnobservedStreamKeepsNoInputAlive() {
        weak var released: MutableProperty<Int>?
        var input: MutableProperty<Int>? = MutableProperty(1)
        let other = MutableProperty(2)
        let later = Property.combineLatest(input!, other).currentAndChanges
        released = input
        input = nil
        #expect(released == nil)
        withExtendedLifetime(later) {}
    }

    /// Every way of writing a map of a pair still reads as it did before the pair's own
    /// `map` (the overloads must not make one ambiguous or pick another meaning).
    @Test func everyClosureFormOfAMapOfAPairStillTypeChecks() {
        let a = MutableProperty(1)
        let b = MutableProperty(2)
        let pair = Property.combineLatest(a, b)
        let sum = pair.map { $0 &+ $1 }
        let text = pair.map { first, second in "\(first)-\(second)" }
        let whole = pair.map { both in both.0 }
        let second = pair.map(\.1)
        let boxed = pair.map { _ in Box(7) }
        let named: @Sendable ((Int, Int)) -> Int = { $0.0 &* $0.1 }
        let product = pair.map(named)
        let swapped = pair.map { ($1, $0) }.map { $0 &- $1 }
        let sums = sum.signal.record()
        let texts = text.signal.record()
        let boxes = boxed.signal.record()
        b.value = 5
        #expect(sum.value == 6)
        #expect(text.value == "1-5")
        #expect(whole.value == 1)
        #expect(second.value == 5)
        #expect(boxed.value.number == 7)
        #expect(product.value == 5)
        #expect(swapped.value == 4)
        // (1, 5) to (5, 1) at once: the same sum, another text. An Equatable result skips
        // it; one that is not (a `Box`) does not.
        withBatchedChanges {
            a.value = 5
            b.value = 1
        }
        sums.assertValues([6])
        texts.assertValues(["1-5", "5-1"])
        #expect(boxes.values.count == 2)
    }

    /// A map of a pair whose result is not `Equatable` calls its transform as a map does:
    /// once to be made (its first value), once per change, once per read; and keeps only
    /// the current result (as its committed value), none it delivered before.
    @Test func aMapOfAPairWithAResultThatIsNotEquatableBuildsItOncePerChange() {
        let a = MutableProperty(1)
        let b = MutableProperty(2)
        let built = Locked(0)
        let alive = Locked(0)
        let results = Property.combineLatest(a, b).map { first, second in
            _ = built.increment()
            return Counted(first &+ second, alive: alive)
        }
        #expect(built.value == 1)
        let recorded = results.signal.observe { _ in }
        a.value = 10
        b.value = 20
        #expect(built.value == 3)
        #expect(alive.value == 1)
        #expect(results.value.number == 30)
        #expect(built.value == 4)
        recorded.dispose()
    }

    /// A class, so not `Equatable`, that counts its live instances.
    final class Counted: Sendable {
        let number: Int
        let alive: Locked<Int>
        init(_ number: Int, alive: Locked<Int>) {
            self.number = number
            self.alive = alive
            alive.increment()
        }
        deinit { alive.withLock { $0 -= 1 } }
    }
}

/// A map through the `map` of any value: in a generic context a pair's own `map` is not in
/// view, so this is the pair's property, then a map of it (the path before contract 1.9a).
private func unfusedMap<Value, Output: Sendable>(
    _ property: Property<Value>, _ transform: @escaping @Sendable (Value) -> Output
) -> Property<Output> {
    property.map(transform)
}

/// `unfusedMap` for an `Equatable` result, which skips equal results.
private func unfusedMap<Value, Output: Sendable & Equatable>(
    _ property: Property<Value>, _ transform: @escaping @Sendable (Value) -> Output
) -> Property<Output> {
    property.map(transform)
}
