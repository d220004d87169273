import Signals
import SignalsTesting
import Testing

@Suite struct ScanTests {
    @Test func scanDoesNotEmitTheInitialValue() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.scan(100) { $0 + $1 }.record()
        recorder.assertEvents([])
        input.send(1)
        recorder.assertValues([101])
    }

    @Test func scanEmitsRunningAccumulation() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.scan(0) { $0 + $1 }.record(exhaustive: true)
        input.send(1)
        input.send(2)
        input.send(3)
        input.sendCompleted()
        recorder.expect(1, 3, 6)
        recorder.expectCompleted()
        recorder.finish()
    }

    @Test func firstEmissionIsCombineOfInitialAndFirstValue() {
        let (signal, input) = Signal<String>.pipe()
        let calls = Locked<[(String, String)]>([])
        let recorder = signal.scan("init") { accumulated, value in
            calls.append((accumulated, value))
            return accumulated + "+" + value
        }.record()
        input.send("a")
        input.send("b")
        recorder.assertValues(["init+a", "init+a+b"])
        #expect(calls.value.count == 2)
        #expect(calls.value.first.map { $0 == ("init", "a") } == true)
        #expect(calls.value.last.map { $0 == ("init+a", "b") } == true)
    }

    @Test func scanCanChangeTheResultType() {
        let (signal, input) = Signal<Character>.pipe()
        let recorder = signal.scan([Character]()) { $0 + [$1] }.record()
        input.send("x")
        input.send("y")
        recorder.assertValues([["x"], ["x", "y"]])
    }

    @Test func scanIsNotOrderIndependent() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.scan(0) { $0 * 10 + $1 }.record()
        input.send(1)
        input.send(2)
        input.send(3)
        recorder.assertValues([1, 12, 123])
    }

    @Test func scanStateIsSharedByAllObserversAndComputedOncePerValue() {
        let (signal, input) = Signal<Int>.pipe()
        let combines = Locked(0)
        let sums = signal.scan(0) { (sum: Int, value: Int) -> Int in
            combines.increment()
            return sum + value
        }
        let early = sums.record()
        input.send(1)
        let late = sums.record()
        input.send(2)
        #expect(combines.value == 2)
        early.assertValues([1, 3])
        // A late observer sees the running total, not a fresh accumulation.
        late.assertValues([3])
    }

    @Test func scanForwardsCompletionAndDropsLaterValues() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.scan(0, +).record()
        input.send(5)
        input.sendCompleted()
        input.send(6)
        recorder.assertEvents([.value(5), .completed])
    }

    @Test func scanOfCompletedSignalOnlyCompletes() {
        let (signal, input) = Signal<Int>.pipe()
        input.sendCompleted()
        let recorder = signal.scan(42, +).record()
        recorder.assertEvents([.completed])
    }
}
