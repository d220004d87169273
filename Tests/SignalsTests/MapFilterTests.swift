import Signals
import SignalsTesting
import Testing

@Suite struct MapFilterTests {
    // MARK: map

    @Test func mapTransformsEveryValueInOrder() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.map { $0 * 10 }.record()
        input.send(1)
        input.send(2)
        input.send(3)
        recorder.assertValues([10, 20, 30])
    }

    @Test func mapCanChangeTheValueType() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.map { "#\($0)" }.record()
        input.send(7)
        input.send(42)
        recorder.assertValues(["#7", "#42"])
    }

    @Test func mapForwardsCompletionAndDropsLaterValues() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.map { $0 + 1 }.record()
        input.send(1)
        input.sendCompleted()
        input.send(2)
        recorder.assertEvents([.value(2), .completed])
    }

    @Test func mapRunsTransformOncePerValueRegardlessOfObserverCount() {
        let (signal, input) = Signal<Int>.pipe()
        let calls = Locked(0)
        let mapped = signal.map { value -> Int in
            calls.increment()
            return value * 2
        }
        let first = mapped.record()
        let second = mapped.record()
        input.send(1)
        input.send(2)
        #expect(calls.value == 2)
        first.assertValues([2, 4])
        second.assertValues([2, 4])
    }

    @Test func mapOnlyDeliversValuesSentAfterObservationStarts() {
        let (signal, input) = Signal<Int>.pipe()
        let mapped = signal.map { $0 * 2 }
        input.send(1)
        let recorder = mapped.record()
        input.send(2)
        recorder.assertValues([4])
    }

    @Test func mapOfACompletedSignalCompletesAtOnce() {
        let (signal, input) = Signal<Int>.pipe()
        input.sendCompleted()
        let recorder = signal.map { $0 * 2 }.record()
        recorder.assertEvents([.completed])
    }

    @Test func chainedMapsCompose() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.map { $0 + 1 }.map { $0 * 3 }.map(String.init).record(exhaustive: true)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        recorder.expect("6", "9")
        recorder.expectCompleted()
        recorder.finish()
    }

    @Test func disposingTheObserverOfAMapStopsDelivery() {
        let (signal, input) = Signal<Int>.pipe()
        let received = Locked<[Int]>([])
        let subscription = signal.map { $0 * 2 }.observe { received.append($0) }
        input.send(1)
        subscription.dispose()
        input.send(2)
        #expect(received.value == [2])
    }

    // MARK: filter

    @Test func filterForwardsOnlyIncludedValues() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.filter { $0.isMultiple(of: 2) }.record()
        for value in 1...6 { input.send(value) }
        recorder.assertValues([2, 4, 6])
    }

    @Test func filterThatRejectsEverythingEmitsNothingButCompletes() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.filter { _ in false }.record()
        input.send(1)
        input.send(2)
        input.sendCompleted()
        recorder.assertEvents([.completed])
    }

    @Test func filterCallsPredicateWithEveryValue() {
        let (signal, input) = Signal<String>.pipe()
        let seen = Locked<[String]>([])
        let recorder = signal.filter { value in
            seen.append(value)
            return value.count > 1
        }.record()
        input.send("a")
        input.send("bb")
        input.send("c")
        input.send("dd")
        #expect(seen.value == ["a", "bb", "c", "dd"])
        recorder.assertValues(["bb", "dd"])
    }

    @Test func filterForwardsCompletion() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.filter { $0 > 0 }.record()
        input.send(-1)
        input.send(1)
        input.sendCompleted()
        input.send(2)
        recorder.assertEvents([.value(1), .completed])
    }

    // MARK: compactMap

    @Test func compactMapDropsNilResults() {
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.compactMap { Int($0) }.record()
        input.send("1")
        input.send("x")
        input.send("22")
        input.send("")
        input.send("-3")
        recorder.assertValues([1, 22, -3])
    }

    @Test func compactMapForwardsCompletion() {
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.compactMap { Int($0) }.record()
        input.send("nope")
        input.send("5")
        input.sendCompleted()
        input.send("6")
        recorder.assertEvents([.value(5), .completed])
    }

    @Test func compactMapOfOptionalsUnwraps() {
        let (signal, input) = Signal<Int?>.pipe()
        let recorder = signal.compactMap { $0 }.record()
        input.send(nil)
        input.send(1)
        input.send(nil)
        input.send(2)
        recorder.assertValues([1, 2])
    }

    @Test func mapFilterCompactMapPipeline() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder =
            signal
            .map { $0 * 3 }
            .filter { $0.isMultiple(of: 2) }
            .compactMap { $0 > 10 ? "big \($0)" : nil }
            .record()
        for value in 1...6 { input.send(value) }
        recorder.assertValues(["big 12", "big 18"])
    }
}
