import Signals
import SignalsTesting
import Testing

@Suite struct TakeSkipTests {
    // MARK: take(first:)

    @Test func takeFirstForwardsFirstNValuesThenCompletes() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.take(first: 2).record(exhaustive: true)
        input.send(1)
        recorder.expect(1)
        recorder.expectNoMoreEvents()
        input.send(2)
        // Completes right after the n-th value, without waiting for the source.
        recorder.expect(2)
        recorder.expectCompleted()
        input.send(3)
        input.sendCompleted()
        recorder.finish()
    }

    @Test func takeFirstZeroEmitsNothingAndCompletesAtOnce() {
        let (signal, input) = Signal<Int>.pipe()
        let taken = signal.take(first: 0)
        let completed = Locked(false)
        taken.observeCompleted { completed.value = true }
        #expect(completed.value)
        let recorder = taken.record()
        input.send(1)
        recorder.assertEvents([.completed])
    }

    @Test func takeFirstNegativeBehavesLikeZero() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.take(first: -3).record()
        input.send(1)
        recorder.assertEvents([.completed])
    }

    @Test func takeFirstCompletesEarlyIfSourceCompletes() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.take(first: 5).record()
        input.send(1)
        input.sendCompleted()
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func takeFirstOneCompletesImmediatelyAfterFirstValue() {
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.take(first: 1).record()
        input.send("only")
        input.send("ignored")
        recorder.assertEvents([.value("only"), .completed])
    }

    @Test func takeFirstStopsObservingTheSource() {
        let (signal, input) = Signal<Int>.pipe()
        let mapped = Locked(0)
        let recorder = signal.map { value -> Int in
            mapped.increment()
            return value
        }.take(first: 1).record()
        input.send(1)
        recorder.assertEvents([.value(1), .completed])
        // After take completed, the intermediate map has no observer left and detaches.
        input.send(2)
        input.send(3)
        #expect(mapped.value == 1)
    }

    @Test func takeFirstCountsValuesSharedAcrossObservers() {
        let (signal, input) = Signal<Int>.pipe()
        let taken = signal.take(first: 2)
        let first = taken.record()
        input.send(1)
        let second = taken.record()
        input.send(2)
        input.send(3)
        first.assertEvents([.value(1), .value(2), .completed])
        second.assertEvents([.value(2), .completed])
    }

    // MARK: skip(first:)

    @Test func skipFirstDropsFirstNValues() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.skip(first: 2).record()
        for value in 1...5 { input.send(value) }
        recorder.assertValues([3, 4, 5])
    }

    @Test func skipFirstZeroForwardsEverything() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.skip(first: 0).record()
        input.send(1)
        input.send(2)
        recorder.assertValues([1, 2])
    }

    @Test func skipFirstForwardsCompletionEvenWhileSkipping() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.skip(first: 3).record()
        input.send(1)
        input.sendCompleted()
        recorder.assertEvents([.completed])
    }

    @Test func skipFirstForwardsCompletionAfterValues() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.skip(first: 1).record()
        input.send(1)
        input.send(2)
        input.sendCompleted()
        recorder.assertEvents([.value(2), .completed])
    }

    // MARK: take(until:)

    @Test func takeUntilForwardsUntilTriggerSendsAValue() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let recorder = signal.take(until: trigger).record()
        input.send(1)
        input.send(2)
        fire.send()
        input.send(3)
        recorder.assertEvents([.value(1), .value(2), .completed])
    }

    @Test func takeUntilEndsWhenTriggerCompletes() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<String>.pipe()
        let recorder = signal.take(until: trigger).record()
        input.send(1)
        fire.sendCompleted()
        input.send(2)
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func takeUntilTriggerAlreadyCompletedCompletesAtOnce() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Int>.pipe()
        fire.sendCompleted()
        let recorder = signal.take(until: trigger).record()
        input.send(1)
        recorder.assertEvents([.completed])
    }

    @Test func takeUntilCompletesWithSource() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let recorder = signal.take(until: trigger).record()
        input.send(1)
        input.sendCompleted()
        fire.send()
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func takeUntilCompletesOnlyOnceWhenTriggerFiresRepeatedly() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Int>.pipe()
        let completions = Locked(0)
        let taken = signal.take(until: trigger)
        taken.observeCompleted { completions.increment() }
        let recorder = taken.record()
        fire.send(1)
        fire.send(2)
        fire.sendCompleted()
        input.send(5)
        #expect(completions.value == 1)
        recorder.assertEvents([.completed])
    }

    @Test func takeUntilStopsObservingSourceAfterTrigger() {
        let (signal, input) = Signal<Int>.pipe()
        let (trigger, fire) = Signal<Void>.pipe()
        let mapped = Locked(0)
        let recorder = signal.map { value -> Int in
            mapped.increment()
            return value
        }.take(until: trigger).record()
        input.send(1)
        fire.send()
        input.send(2)
        #expect(mapped.value == 1)
        recorder.assertEvents([.value(1), .completed])
    }

    @Test(.tags(.regression)) func takeUntilATriggerCompletedFromInsideItsCompletionForwardsNothing() {
        // Built inside the trigger's completion handler, while its delivery is in
        // progress: the completed trigger ends the chain before the source sends. Queued
        // behind that delivery, its completion came after the source's value.
        let (trigger, triggerInput) = Signal<Int>.pipe()
        let (source, sourceInput) = Signal<Int>.pipe()
        let recorder = Locked<Recorder<Int>?>(nil)
        let outer = trigger.observeCompleted {
            recorder.value = source.take(until: trigger).record()
            sourceInput.send(1)
        }
        triggerInput.sendCompleted()
        recorder.value?.assertEvents([.completed])
        #expect(recorder.value != nil)
        outer.dispose()
    }

    @Test(.tags(.regression)) func skipUntilATriggerCompletedFromInsideItsCompletionLetsValuesThrough() {
        let (trigger, triggerInput) = Signal<Int>.pipe()
        let (source, sourceInput) = Signal<Int>.pipe()
        let recorder = Locked<Recorder<Int>?>(nil)
        let outer = trigger.observeCompleted {
            recorder.value = source.skip(until: trigger).record()
            sourceInput.send(1)
        }
        triggerInput.sendCompleted()
        recorder.value?.assertValues([1])
        #expect(recorder.value != nil)
        outer.dispose()
    }
}
