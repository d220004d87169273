import Signals
import SignalsTesting
import Testing

/// `Signal.combineLatest`, `Signal.zip` and `Property.combineLatest` over any number of
/// inputs, as flat tuples.
@Suite struct PackOperatorTests {
    // MARK: Signal.combineLatest

    @Test func signalCombineLatestOfThreeIsAFlatTupleOnceAllHaveSent() {
        let (numbers, number) = Signal<Int>.pipe()
        let (names, name) = Signal<String>.pipe()
        let (flags, flag) = Signal<Bool>.pipe()
        let combined: Signal<(Int, String, Bool)> = Signal.combineLatest(numbers, names, flags)
        let recorder = combined.record()
        number.send(1)
        name.send("a")
        #expect(recorder.values.isEmpty)
        flag.send(true)
        number.send(2)
        flag.send(false)
        name.send("b")
        recorder.assertValues([(1, "a", true), (2, "a", true), (2, "a", false), (2, "b", false)], by: ==)
    }

    @Test func signalCombineLatestOfFourCompletesWhenAllHaveCompleted() {
        let pipes = (0..<3).map { _ in Signal<Int>.pipe() }
        let (names, name) = Signal<String>.pipe()
        let combined: Signal<(Int, Int, Int, String)> =
            Signal.combineLatest(pipes[0].output, pipes[1].output, pipes[2].output, names)
        let recorder = combined.record()
        for (index, pipe) in pipes.enumerated() { pipe.input.send(index) }
        name.send("x")
        pipes[1].input.send(10)
        for pipe in pipes { pipe.input.sendCompleted() }
        #expect(!recorder.isCompleted)
        name.send("y")
        name.sendCompleted()
        recorder.assertValues([(0, 1, 2, "x"), (0, 10, 2, "x"), (0, 10, 2, "y")], by: ==)
        #expect(recorder.isCompleted)
    }

    @Test func signalCombineLatestOfTwoStillUsesThePairOverload() {
        let (numbers, number) = Signal<Int>.pipe()
        let (names, name) = Signal<String>.pipe()
        let pair: Signal<(Int, String)> = Signal.combineLatest(numbers, names)
        let recorder = pair.record()
        number.send(1)
        name.send("a")
        number.send(2)
        recorder.assertValues([(1, "a"), (2, "a")], by: ==)
    }

    // MARK: Signal.zip

    @Test func signalZipOfThreePairsTheNthValues() {
        let (numbers, number) = Signal<Int>.pipe()
        let (names, name) = Signal<String>.pipe()
        let (flags, flag) = Signal<Bool>.pipe()
        let zipped: Signal<(Int, String, Bool)> = Signal.zip(numbers, names, flags)
        let recorder = zipped.record()
        number.send(1)
        number.send(2)
        name.send("a")
        #expect(recorder.values.isEmpty)
        flag.send(true)
        flag.send(false)
        name.send("b")
        recorder.assertValues([(1, "a", true), (2, "b", false)], by: ==)
        number.sendCompleted()
        #expect(recorder.isCompleted, "an input completed with nothing unpaired: no more tuples are possible")
    }

    @Test func signalZipOfFourWaitsForPartnersOfQueuedValuesBeforeCompleting() {
        let pipes = (0..<4).map { _ in Signal<Int>.pipe() }
        let zipped: Signal<(Int, Int, Int, Int)> =
            Signal.zip(pipes[0].output, pipes[1].output, pipes[2].output, pipes[3].output)
        let recorder = zipped.record()
        pipes[0].input.send(1)
        pipes[0].input.send(2)
        pipes[0].input.sendCompleted()
        for index in 1..<4 { pipes[index].input.send(index * 10) }
        #expect(!recorder.isCompleted, "2 is still waiting for partners")
        for index in 1..<4 { pipes[index].input.send(index * 100) }
        recorder.assertValues([(1, 10, 20, 30), (2, 100, 200, 300)], by: ==)
        #expect(recorder.isCompleted)
    }

    @Test func signalZipOfTwoStillUsesThePairOverload() {
        let (numbers, number) = Signal<Int>.pipe()
        let (names, name) = Signal<String>.pipe()
        let pair: Signal<(Int, String)> = Signal.zip(numbers, names)
        let recorder = pair.record()
        number.send(1)
        name.send("a")
        recorder.assertValues([(1, "a")], by: ==)
    }

    // MARK: Property.combineLatest

    @Test func propertyCombineLatestOfThreeIsAFlatTupleOfTheCurrentValues() {
        let count = MutableProperty(1)
        let name = MutableProperty("a")
        let flag = MutableProperty(false)
        let combined: Property<(Int, String, Bool)> = Property.combineLatest(count, name, flag)
        #expect(combined.value == (1, "a", false))
        let recorder = combined.record()
        flag.value = true
        count.value = 2
        recorder.assertValues([(1, "a", false), (1, "a", true), (2, "a", true)], by: ==)
    }

    @Test func propertyCombineLatestOfFourFollowsEveryInputAndCompletesWithThem() {
        var a: MutableProperty<Int>? = MutableProperty(1)
        var b: MutableProperty<Int>? = MutableProperty(2)
        var c: MutableProperty<Int>? = MutableProperty(3)
        var d: MutableProperty<String>? = MutableProperty("d")
        // Only the recorder listens: the combination does not keep its inputs alive here.
        let recorder = Property.combineLatest(a!, b!, c!, d!).signal.record()
        d?.value = "e"
        b?.value = 20
        a = nil
        b = nil
        c = nil
        #expect(!recorder.isCompleted)
        d = nil
        recorder.assertValues([(1, 2, 3, "e"), (1, 20, 3, "e")], by: ==)
        #expect(recorder.isCompleted)
    }

    @Test func propertyCombineLatestOfThreeMapsOfOneSourceIsGlitchFree() {
        let source = MutableProperty(1)
        let combined = Property.combineLatest(source.map { $0 }, source.map { $0 * 10 }, source.map { "\($0)" })
        let recorder = combined.record()
        source.value = 2
        source.value = 3
        recorder.assertValues([(1, 10, "1"), (2, 20, "2"), (3, 30, "3")], by: ==)
    }

    @Test func derivedStateStaysGlitchFreeWhenItArrivesAfterAndLeavesBeforePlainObservers() {
        // A property observed only by plain observers sends its changes without the
        // invalidation that derived state needs; derived state arriving later gets it.
        let source = MutableProperty(1)
        let plain = Locked<[Int]>([])
        let subscription = source.observe { plain.append($0) }
        source.value = 2
        var combined: Property<(Int, Int)>? = Property.combineLatest(source.map { $0 }, source.map { $0 * 10 })
        let recorder = combined?.record()
        source.value = 3
        source.value = 4
        recorder?.assertValues([(2, 20), (3, 30), (4, 40)], by: ==)
        combined = nil
        source.value = 5
        #expect(plain.value == [1, 2, 3, 4, 5])
        subscription.dispose()
    }

    @Test func propertyCombineLatestOfFourWithInputsThatAreNotEquatableEmitsEveryChange() {
        struct Box: Sendable { let value: Int }
        let source = MutableProperty(1)
        let boxed = source.map { Box(value: $0) }
        let combined = Property.combineLatest(boxed, source, source.map { $0 * 2 }, boxed)
        let recorder = combined.record()
        source.value = 1 // set to the same value: the Box input is not Equatable, so it emits
        source.value = 2
        #expect(recorder.values.map { "\($0.0.value)\($0.1)\($0.2)\($0.3.value)" } == ["1121", "1121", "2242"])
    }

    @Test func propertyCombineLatestOfTwoStillWorks() {
        let count = MutableProperty(1)
        let name = MutableProperty("a")
        let pair: Property<(Int, String)> = Property.combineLatest(count, name)
        let recorder = pair.record()
        name.value = "b"
        recorder.assertValues([(1, "a"), (1, "b")], by: ==)
    }

    @Test func propertyZipOfThreeStartsFromTheCurrentValuesThenPairsTheNthChanges() {
        let question = MutableProperty("q0")
        let answer = MutableProperty(0)
        let checked = MutableProperty(false)
        let turns: Property<(String, Int, Bool)> = Property.zip(question, answer, checked)
        let recorder = turns.record()
        question.value = "q1"
        question.value = "q2"
        answer.value = 1
        checked.value = true
        #expect(turns.value == ("q1", 1, true))
        answer.value = 2
        checked.value = false
        recorder.assertValues([("q0", 0, false), ("q1", 1, true), ("q2", 2, false)], by: ==)
    }
}
