import Signals
import SignalsTesting
import Testing

/// `Signal.combineLatest([…])`, `Signal.zip([…])` and `Property.combineLatest([…])`.
@Suite struct CombineManyTests {
    @Test func combineLatestOfAListEmitsOnceAllHaveSentThenOnEveryValue() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let (c, sendC) = Signal<Int>.pipe()
        let recorder = Signal.combineLatest([a, b, c]).record()
        sendA.send(1)
        sendB.send(2)
        #expect(recorder.values.isEmpty)
        sendC.send(3)
        sendB.send(20)
        recorder.assertValues([[1, 2, 3], [1, 20, 3]])
        sendA.sendCompleted()
        sendB.sendCompleted()
        #expect(!recorder.isCompleted)
        sendC.sendCompleted()
        #expect(recorder.isCompleted)
    }

    @Test func combineLatestOfAnEmptyListSendsAnEmptyArrayThenCompletes() {
        Signal<Int>.combineLatest([]).record().assertEvents([.value([]), .completed])
        Signal<Int>.zip([]).record().assertEvents([.value([]), .completed])
    }

    @Test func combineLatestOfAListKeepsOrderWhenAnObserverSendsFromInside() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let combined = Signal.combineLatest([a, b])
        let recorder = combined.record()
        let echo = combined.observe { values in if values[1] < 2 { sendB.send(values[1] + 1) } }
        sendB.send(0)
        sendA.send(1)
        recorder.assertValues([[1, 0], [1, 1], [1, 2]])
        echo.dispose()
    }

    @Test func combineLatestOfTheSameSignalTwiceSeesItOnTheLeftFirst() {
        let (a, sendA) = Signal<Int>.pipe()
        let recorder = Signal.combineLatest([a, a.map { $0 * 10 }]).record()
        sendA.send(1)
        sendA.send(2)
        recorder.assertValues([[1, 10], [2, 10], [2, 20]])
    }

    @Test func zipOfAListPairsTheNthValuesAndCompletesWhenOneRunsOut() {
        let scheduler = TestScheduler()
        let (a, sendA) = Signal<String>.pipe()
        let (b, sendB) = Signal<String>.pipe()
        let recorder = Signal.zip([a, b]).map { $0.joined() }.record(on: scheduler)
        scheduler.drive(sendA, with: "ab-c|")
        scheduler.drive(sendB, with: "-x--y-z")
        scheduler.run()
        let values = recorder.values
        // `c` waits for `z`; then the first input has completed with nothing left over.
        #expect(values == ["ax", "by", "cz"])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(1), .seconds(4), .seconds(6), .seconds(6)])
        #expect(recorder.isCompleted)
    }

    @Test func zipOfAListKeepsOrderWhenAnObserverSendsFromInside() {
        let (a, sendA) = Signal<Int>.pipe()
        let (b, sendB) = Signal<Int>.pipe()
        let zipped = Signal.zip([a, b])
        let recorder = zipped.record()
        let echo = zipped.observe { values in
            if values[0] < 3 {
                sendA.send(values[0] + 1)
                sendB.send(values[1] + 1)
            }
        }
        sendA.send(1)
        sendB.send(10)
        recorder.assertValues([[1, 10], [2, 11], [3, 12]])
        echo.dispose()
    }

    // MARK: Property.combineLatest([…])

    @Test func propertyCombineLatestOfAListIsGlitchFree() {
        let source = MutableProperty(1)
        let combined = Property.combineLatest([source.map { $0 * 10 }, source.map { $0 * 100 }, source])
        let recorder = combined.record()
        source.value = 2
        source.value = 3
        recorder.assertValues([[10, 100, 1], [20, 200, 2], [30, 300, 3]])
        #expect(combined.value == [30, 300, 3])
    }

    @Test func propertyCombineLatestOfEquatableInputsEmitsOnlyChanges() {
        let source = MutableProperty(1)
        let other = MutableProperty("a")
        let combined = Property.combineLatest([source.map { $0 > 0 }, other.map { !$0.isEmpty }])
        let recorder = combined.record()
        source.value = 2
        other.value = "b"
        source.value = -1
        recorder.assertValues([[true, true], [false, true]])
    }

    @Test func propertyCombineLatestOfAListCompletesWhenEveryInputHas() {
        var first: MutableProperty<Int>? = MutableProperty(1)
        var second: MutableProperty<Int>? = MutableProperty(2)
        // Only the recorder listens: the combination does not keep its inputs alive here.
        let recorder = Property.combineLatest([first, second].compactMap { $0 as Property<Int>? }).signal.record()
        first?.value = 10
        first = nil
        #expect(!recorder.isCompleted)
        second = nil
        recorder.assertValues([[10, 2]])
        #expect(recorder.isCompleted)
    }

    @Test func propertyCombineLatestOfAnEmptyListIsAnEmptyArrayForGood() {
        let combined = Property<Int>.combineLatest([])
        #expect(combined.value == [])
        combined.record().assertEvents([.value([]), .completed])
    }

    @Test func propertyCombineLatestOfAListKeepsOrderWhenAnObserverSetsAnInput() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let combined = Property.combineLatest([a, b])
        let recorder = combined.record()
        let echo = combined.observe { values in if values[0] == 1, values[1] == 0 { b.value = 1 } }
        a.value = 1
        recorder.assertValues([[0, 0], [1, 0], [1, 1]])
        echo.dispose()
    }
}
