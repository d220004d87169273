import Signals
import SignalsTesting
import Testing

/// `take(while:)`, `skip(while:)`, `skip(until:)` and `take(during:)`.
@Suite struct ConditionTests {
    // MARK: take(while:), ReactiveSwift's expectations

    @Test func takeWhileForwardsWhileThePredicateHoldsThenCompletes() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.take(while: { $0 <= 4 }).record(exhaustive: true)
        for value in -1...4 { input.send(value) }
        recorder.expect(-1, 0, 1, 2, 3, 4)
        recorder.expectNoMoreEvents()
        input.send(5)
        recorder.expectCompleted()
        input.send(1)
        recorder.finish()
    }

    @Test func takeWhileCompletesAtOnceIfThePredicateStartsFalse() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.take(while: { $0 <= 4 }).record()
        input.send(5)
        recorder.assertEvents([.completed])
    }

    @Test func takeWhileStopsObservingItsSource() {
        let (signal, input) = Signal<Int>.pipe()
        let asked = Locked(0)
        let recorder = signal.take(while: { value in
            asked.increment()
            return value < 2
        }).record()
        input.send(1)
        input.send(2)
        input.send(1)
        recorder.assertEvents([.value(1), .completed])
        #expect(asked.value == 2)
    }

    @Test func takeWhileSeesAValueSentFromInsideAnObserverAfterTheCurrentOne() {
        let (signal, input) = Signal<Int>.pipe()
        let taken = signal.take(while: { $0 < 3 })
        let recorder = taken.record()
        let echo = taken.observe { input.send($0 + 1) }
        input.send(1)
        recorder.assertEvents([.value(1), .value(2), .completed])
        echo.dispose()
    }

    // MARK: skip(while:)

    @Test func skipWhileDropsUntilThePredicateFailsThenForwardsEverything() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let asked = Locked(0)
        let recorder = signal.skip(while: { value in
            asked.increment()
            return value == "a"
        }).record(on: scheduler)
        scheduler.drive(input, with: "aa-bab|")
        scheduler.run()
        recorder.assertMarbles("---bab|")
        #expect(asked.value == 3, "not asked again once it failed")
    }

    @Test func skipWhileForwardsTheCompletionWhileSkipping() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.skip(while: { _ in true }).record()
        input.send(1)
        input.sendCompleted()
        recorder.assertEvents([.completed])
    }

    // MARK: skip(until:)

    @Test func skipUntilForwardsOnceTheTriggerSends() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let (trigger, fire) = Signal<String>.pipe()
        let recorder = signal.skip(until: trigger).record(on: scheduler)
        scheduler.drive(input, with: "ab-cd-e|")
        scheduler.drive(fire, with: "--x-x")
        scheduler.run()
        recorder.assertMarbles("---cd-e|")
    }

    // ReactiveSwift: the gate opens when the trigger completes, too (RxSwift keeps it shut).
    @Test func skipUntilOpensWhenTheTriggerCompletesWithoutAValue() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let recorder = signal.skip(until: trigger).record()
        input.send(1)
        fire.sendCompleted()
        input.send(2)
        input.sendCompleted()
        recorder.assertEvents([.value(2), .completed])
    }

    @Test func skipUntilOpensForAValueSentFromInsideAnObserverAfterTheTrigger() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let gated = signal.skip(until: trigger)
        let recorder = gated.record()
        let (others, other) = Signal<Int>.pipe()
        let opener = others.observe { _ in
            input.send(1)
            fire.send()
            input.send(2)
        }
        other.send(0)
        recorder.assertValues([2])
        opener.dispose()
    }

    @Test func skipUntilOfAPrefixedTriggerIsOpenFromTheStart() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let recorder = signal.prefix(value: 0).skip(until: trigger.prefix(value: ())).record()
        input.send(1)
        recorder.assertValues([0, 1])
        withExtendedLifetime(fire) {}
    }

    // MARK: take(during:)

    @Test func takeDuringCompletesWhenTheBagIsDisposed() {
        let bag = DisposeBag()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.take(during: bag).record()
        input.send(1)
        bag.dispose()
        input.send(2)
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func takeDuringCompletesWhenTheBagIsFreed() {
        var bag: DisposeBag? = DisposeBag()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.take(during: bag ?? DisposeBag()).record()
        input.send(1)
        bag = nil
        input.send(2)
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func takeDuringABagAlreadyDisposedWaitsForItsNextDisposal() {
        let bag = DisposeBag()
        bag.dispose()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.take(during: bag).record()
        input.send(1)
        bag.dispose()
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func aLongLivedBagLetsGoOfSignalsThatEndedFirst() {
        let bag = DisposeBag()
        let tracker = ReleaseTracker()
        for round in 0..<200 {
            let token = Token()
            tracker.track(token, "closure capture \(round)")
            let (signal, input) = Signal<Int>.pipe()
            let subscription = signal.map { value -> Int in
                _ = token
                return value
            }.take(during: bag).observe { _ in }
            if round.isMultiple(of: 2) {
                input.sendCompleted()
            } else {
                subscription.dispose()
            }
        }
        // Every chain ended before the bag: none is kept alive by it, and none is live in it.
        tracker.assertAllReleased()
        #expect(bag.liveCount == 0)
    }

    @Test func takeDuringCompletesAnObserverAddedFromInsideTheCompletion() {
        let bag = DisposeBag()
        let (signal, input) = Signal<Int>.pipe()
        let during = signal.take(during: bag)
        let late = Locked<Recorder<Int>?>(nil)
        let completion = during.observeCompleted { late.value = during.record() }
        bag.dispose()
        late.value?.assertEvents([.completed])
        #expect(late.value != nil)
        completion.dispose()
        withExtendedLifetime(input) {}
    }
}
