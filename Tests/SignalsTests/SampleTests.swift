import Signals
import SignalsTesting
import Testing

/// `sample(on:)` and `withLatest(from:_:)` with a combining closure.
@Suite struct SampleTests {
    // MARK: sample(on:), ReactiveSwift's expectations

    @Test func forwardsTheLatestValueWhenTheTriggerSends() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let recorder = signal.sample(on: trigger).record()
        input.send(1)
        input.send(2)
        fire.send()
        recorder.assertValues([2])
    }

    @Test func sendsNothingWhileTheSignalHasSentNothing() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let recorder = signal.sample(on: trigger).record()
        fire.send()
        recorder.assertValues([])
        withExtendedLifetime(input) {}
    }

    @Test func sendsTheLatestValueAgainEachTimeTheTriggerSends() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let recorder = signal.sample(on: trigger).record()
        input.send(1)
        fire.send()
        fire.send()
        recorder.assertValues([1, 1])
    }

    // ReactiveSwift completes once both have completed; ours completes with the trigger,
    // since nothing can be sent after it (contract, "Vocabulary operators").
    @Test func completesWhenTheTriggerCompletesNotWhenTheSignalDoes() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let recorder = signal.sample(on: trigger).record()
        input.send(1)
        input.sendCompleted()
        #expect(!recorder.isCompleted)
        fire.send()
        recorder.assertValues([1])
        fire.sendCompleted()
        recorder.assertEvents([.value(1), .completed])
    }

    // MARK: sample(on:), RxSwift's Observable+SampleTests timelines (1 frame = 10 ticks,
    // subscribed at 200). RxSwift sends a value at most once and, at the trigger's
    // completion, a value not yet sent; ours sends the latest value on every trigger.

    @Test func rxSimple1() {
        let scheduler = TestScheduler()
        let (xs, x) = Signal<String>.pipe()
        let (ys, y) = Signal<String>.pipe()
        let recorder = xs.sample(on: ys).record(on: scheduler)
        scheduler.drive(x, with: "--2-3----456--------|")
        scheduler.drive(y, with: "-b---fq-----z-----------------|")
        scheduler.run()
        // RxSwift: 250:3, 320:6, completed 500.
        recorder.assertMarbles("-----33-----6-----------------|")
    }

    @Test func rxSimple2() {
        let scheduler = TestScheduler()
        let (xs, x) = Signal<String>.pipe()
        let (ys, y) = Signal<String>.pipe()
        let recorder = xs.sample(on: ys).record(on: scheduler)
        scheduler.drive(x, with: "--2-3----456----7---|")
        scheduler.drive(y, with: "-b---fq-----z-----------------|")
        scheduler.run()
        // RxSwift: 250:3, 320:6, then 7 and the completion at 500.
        recorder.assertMarbles("-----33-----6-----------------|")
    }

    @Test func rxSimple3() {
        let scheduler = TestScheduler()
        let (xs, x) = Signal<String>.pipe()
        let (ys, y) = Signal<String>.pipe()
        let recorder = xs.sample(on: ys).record(on: scheduler)
        scheduler.drive(x, with: "--2-3----4|")
        scheduler.drive(y, with: "-b---fq-----z-----------------|")
        scheduler.run()
        // RxSwift: 250:3, then 4 and the completion at 320.
        recorder.assertMarbles("-----33-----4-----------------|")
    }

    @Test func aValueSentFromInsideAnObserverIsSampledByTheNextTrigger() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let sampled = signal.sample(on: trigger)
        let recorder = sampled.record()
        let reacting = sampled.observe { value in
            if value == 1 {
                input.send(2)
                fire.send()
            }
        }
        input.send(1)
        fire.send()
        recorder.assertValues([1, 2])
        reacting.dispose()
    }

    @Test func anObserverDisposedDuringADeliveryMissesTheSampleInFlight() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let sampled = signal.sample(on: trigger)
        let second = Locked<Disposable?>(nil)
        let secondValues = Locked<[Int]>([])
        let first = sampled.observe { _ in second.value?.dispose() }
        second.value = sampled.observe { secondValues.append($0) }
        input.send(1)
        fire.send()
        fire.send()
        #expect(secondValues.value == [])
        first.dispose()
    }

    // MARK: withLatest(from:_:)

    @Test func withLatestFromASignalCombinesEachValueWithTheLatestSampled() {
        let (taps, tap) = Signal<Int>.pipe()
        let (drafts, draft) = Signal<String>.pipe()
        let recorder = taps.withLatest(from: drafts) { count, text in "\(text)×\(count)" }.record()
        tap.send(0)
        draft.send("a")
        draft.send("b")
        tap.send(1)
        tap.send(2)
        tap.sendCompleted()
        recorder.assertEvents([.value("b×1"), .value("b×2"), .completed])
    }

    @Test func withLatestFromAPropertyCombinesEachValueWithItsCurrentValue() {
        let (taps, tap) = Signal<Void>.pipe()
        let credentials = MutableProperty("ann")
        let recorder = taps.withLatest(from: credentials) { _, name in name.uppercased() }.record()
        tap.send()
        credentials.value = "bob"
        tap.send()
        tap.sendCompleted()
        credentials.value = "cy"
        recorder.assertEvents([.value("ANN"), .value("BOB"), .completed])
    }
}
