import Signals
import SignalsTesting
import Testing

@Suite struct PrefixTests {
    @Test func observerGetsPrefixFirstThenValues() {
        let (signal, input) = Signal<Int>.pipe()
        let prefixed = signal.prefix(value: 0)
        let recorder = prefixed.record(exhaustive: true)
        recorder.expect(0)
        input.send(1)
        input.send(2)
        recorder.expect(1, 2)
        recorder.finish()
    }

    @Test func everyObserverGetsPrefixWhenItStartsObserving() {
        let (signal, input) = Signal<String>.pipe()
        let prefixed = signal.prefix(value: "start")
        let first = prefixed.record()
        input.send("a")
        let second = prefixed.record()
        input.send("b")
        let third = prefixed.record()
        first.assertValues(["start", "a", "b"])
        second.assertValues(["start", "b"])
        third.assertValues(["start"])
    }

    @Test func prefixIsDeliveredAtObservationTimeNotAtCreation() {
        let (signal, input) = Signal<Int>.pipe()
        let prefixed = signal.prefix(value: 0)
        input.send(1) // nobody observes yet: dropped
        let received = Locked<[Int]>([])
        prefixed.observe { received.append($0) }
        #expect(received.value == [0])
        input.send(2)
        #expect(received.value == [0, 2])
    }

    @Test func prefixForwardsCompletion() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.prefix(value: 0).record()
        input.send(1)
        input.sendCompleted()
        recorder.assertEvents([.value(0), .value(1), .completed])
    }

    @Test func observerAddedFromInsideDeliveryGetsPrefixBeforeLaterValues() {
        let (signal, input) = Signal<Int>.pipe()
        let prefixed = signal.prefix(value: 0)
        let late = Locked<[Int]>([])
        let lateSubscription = Locked<Disposable?>(nil)
        let trigger = prefixed.observe { value in
            if value == 1 && lateSubscription.value == nil {
                lateSubscription.value = prefixed.observe { late.append($0) }
                input.send(2)
            }
        }
        input.send(1)
        input.send(3)
        #expect(late.value == [0, 2, 3])
        trigger.dispose()
        lateSubscription.value?.dispose()
    }

    @Test func disposedObserverDoesNotAffectOthers() {
        let (signal, input) = Signal<Int>.pipe()
        let prefixed = signal.prefix(value: -1)
        let first = Locked<[Int]>([])
        let subscription = prefixed.observe { first.append($0) }
        subscription.dispose()
        let second = prefixed.record()
        input.send(5)
        #expect(first.value == [-1])
        second.assertValues([-1, 5])
    }
}

@Suite struct PrefixChainingTests {
    @Test func mapFilterAndCompactMapCarryThePrefixToTheirObservers() {
        let (signal, input) = Signal<Int>.pipe()
        let prefixed = signal.prefix(value: 1)
        let mapped = prefixed.map { $0 + 100 }.record()
        let kept = prefixed.filter { $0 > 0 }.record()
        let dropped = prefixed.filter { $0 > 5 }.record()
        let compact = prefixed.compactMap { $0 == 1 ? "one" : nil }.record()
        input.send(7)
        mapped.assertValues([101, 107])
        kept.assertValues([1, 7])
        dropped.assertValues([7])
        compact.assertValues(["one"])
    }

    @Test func skipRepeatsCarriesThePrefixAndTreatsItAsTheLastValue() {
        let (signal, input) = Signal<Int>.pipe()
        let distinct = signal.prefix(value: 0).skipRepeats()
        let first = distinct.record()
        input.send(0)
        input.send(1)
        let second = distinct.record()
        first.assertValues([0, 1])
        second.assertValues([0])
    }

    @Test func otherOperatorsTakeThePrefixAsTheirFirstValueWhenBuilt() {
        let (numbers, number) = Signal<Int>.pipe()
        let (names, name) = Signal<String>.pipe()
        let pairs = Signal.combineLatest(numbers.prefix(value: 0), names).record()
        name.send("a")
        number.send(1)
        pairs.assertValues([(0, "a"), (1, "a")], by: { $0 == $1 })
    }
}
