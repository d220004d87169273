import Signals
import SignalsTesting
import Testing

@Suite struct SkipRepeatsTests {
    @Test func skipRepeatsDropsConsecutiveEqualValues() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.skipRepeats().record()
        for value in [1, 1, 2, 2, 2, 3, 1, 1] { input.send(value) }
        recorder.assertValues([1, 2, 3, 1])
    }

    @Test func firstValueIsAlwaysForwarded() {
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.skipRepeats().record()
        input.send("")
        recorder.assertValues([""])
    }

    @Test func nonConsecutiveRepeatsAreForwarded() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.skipRepeats().record()
        for value in [1, 2, 1, 2] { input.send(value) }
        recorder.assertValues([1, 2, 1, 2])
    }

    @Test func skipRepeatsForwardsCompletion() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.skipRepeats().record()
        input.send(1)
        input.send(1)
        input.sendCompleted()
        input.send(2)
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func customEquivalenceIsUsed() {
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.skipRepeats { $0.lowercased() == $1.lowercased() }.record()
        for value in ["a", "A", "b", "B", "b", "a"] { input.send(value) }
        recorder.assertValues(["a", "b", "a"])
    }

    @Test func customEquivalenceComparesAgainstLastForwardedValue() {
        // "Close enough" comparison: the reference point only moves when a value is forwarded.
        let (signal, input) = Signal<Int>.pipe()
        let comparisons = Locked<[(Int, Int)]>([])
        let recorder = signal.skipRepeats { previous, next in
            comparisons.append((previous, next))
            return abs(previous - next) < 3
        }.record()
        for value in [0, 1, 2, 3, 4, 5, 6] { input.send(value) }
        recorder.assertValues([0, 3, 6])
        #expect(comparisons.value.count == 6)
        #expect(comparisons.value.map(\.0) == [0, 0, 0, 3, 3, 3])
        #expect(comparisons.value.map(\.1) == [1, 2, 3, 4, 5, 6])
    }

    @Test func equivalenceNeverCalledForFirstValue() {
        let (signal, input) = Signal<Int>.pipe()
        let calls = Locked(0)
        let recorder = signal.skipRepeats { _, _ in
            calls.increment()
            return true
        }.record()
        input.send(1)
        #expect(calls.value == 0)
        input.send(2)
        input.send(3)
        #expect(calls.value == 2)
        recorder.assertValues([1])
    }

    @Test func skipRepeatsWorksForNonEquatableValuesWithClosure() {
        struct Point {
            var x: Int
            var y: Int
        }
        let (signal, input) = Signal<Point>.pipe()
        let recorder = signal.skipRepeats { $0.x == $1.x && $0.y == $1.y }.record()
        input.send(Point(x: 0, y: 0))
        input.send(Point(x: 0, y: 0))
        input.send(Point(x: 1, y: 0))
        recorder.assertValues([Point(x: 0, y: 0), Point(x: 1, y: 0)]) { $0.x == $1.x && $0.y == $1.y }
    }

    @Test func lateObserverSeesOnlyChangesAfterItStarts() {
        let (signal, input) = Signal<Int>.pipe()
        let distinct = signal.skipRepeats()
        let early = distinct.record()
        input.send(1)
        let late = distinct.record()
        input.send(1) // repeat of the state shared by the operator
        input.send(2)
        early.assertValues([1, 2])
        late.assertValues([2])
    }
}
