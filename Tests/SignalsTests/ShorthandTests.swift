import Signals
import SignalsTesting
import Testing

private struct Listing: Sendable, Equatable {
    let title: String
}

/// `map(value:)`, key-path `map`, `skipNil()`, `ignoreValues()` and `combinePrevious`.
@Suite struct ShorthandTests {
    // ReactiveSwift: "should replace the values of the signal to constant new value".
    @Test func mapValueReplacesEveryValue() {
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.map(value: 1).record()
        input.send("foo")
        input.send("foobar")
        input.sendCompleted()
        recorder.assertEvents([.value(1), .value(1), .completed])
    }

    // ReactiveSwift: "should support key paths". Swift 6 infers a key-path literal as a
    // `@Sendable` function, so the plain `map` takes it: no overload is needed.
    @Test func aKeyPathMapsASignalAndAProperty() {
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.map(\.count).record()
        input.send("foo")
        input.send("foobar")
        recorder.assertValues([3, 6])

        let listing = MutableProperty(Listing(title: "Loft"))
        let titles = listing.map(\.title).record()
        listing.value = Listing(title: "Barn")
        titles.assertValues(["Loft", "Barn"])
    }

    @Test func skipNilForwardsTheValuesThatAreThere() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String?>.pipe()
        let recorder = signal.skipNil().record(on: scheduler)
        scheduler.drive(input, with: "anb-n|", values: ["a": "a", "n": nil, "b": "b"])
        scheduler.run()
        recorder.assertMarbles("a-b--|")
    }

    @Test func ignoreValuesForwardsTheCompletionOnly() {
        let (signal, input) = Signal<Int>.pipe()
        let ignored: Signal<Never> = signal.ignoreValues()
        let completed = Locked(false)
        ignored.observeCompleted { completed.value = true }
        input.send(1)
        input.send(2)
        #expect(!completed.value)
        input.sendCompleted()
        #expect(completed.value)
    }

    @Test func ignoreValuesEndsATakeUntilWhenItsSourceCompletes() {
        let (edits, edit) = Signal<String>.pipe()
        let (saves, save) = Signal<Int>.pipe()
        let recorder = edits.take(until: saves.ignoreValues()).record()
        edit.send("a")
        save.send(1)
        edit.send("b")
        save.sendCompleted()
        edit.send("c")
        recorder.assertEvents([.value("a"), .value("b"), .completed])
    }

    // ReactiveSwift: combinePrevious "should pair values" with and without an initial value.
    @Test func combinePreviousWithAnInitialValuePairsTheFirstValueWithIt() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.combinePrevious(initial: 0).record()
        input.send(1)
        input.send(2)
        input.send(3)
        input.sendCompleted()
        recorder.assertValues([(0, 1), (1, 2), (2, 3)], by: ==)
        #expect(recorder.isCompleted)
    }

    @Test func combinePreviousWithoutAnInitialValueWaitsForTheSecondValue() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.combinePrevious().record()
        input.send(1)
        #expect(recorder.values.isEmpty)
        input.send(2)
        input.send(3)
        recorder.assertValues([(1, 2), (2, 3)], by: ==)
        let labelled = recorder.values.map { "\($0.previous)→\($0.current)" }
        #expect(labelled == ["1→2", "2→3"])
    }

    @Test func combinePreviousOfOptionalsPairsWithAnInitialNil() {
        let (signal, input) = Signal<Int?>.pipe()
        let recorder = signal.combinePrevious(initial: nil).record()
        input.send(1)
        input.send(nil)
        recorder.assertValues([(nil, 1), (1, nil)], by: ==)
    }

    @Test func combinePreviousKeepsOrderWhenAnObserverSendsFromInside() {
        let (signal, input) = Signal<Int>.pipe()
        let pairs = signal.combinePrevious(initial: 0)
        let recorder = pairs.record()
        let echo = pairs.observe { pair in if pair.current < 3 { input.send(pair.current + 1) } }
        input.send(1)
        recorder.assertValues([(0, 1), (1, 2), (2, 3)], by: ==)
        echo.dispose()
    }
}
