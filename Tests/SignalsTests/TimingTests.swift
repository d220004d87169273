import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

@Suite struct TimingTests {
    // MARK: debounce

    @Test func debounceEmitsOnTrailingEdge() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        input.send("a")
        recorder.assertValues([])
        scheduler.advance(by: .milliseconds(999))
        recorder.assertValues([])
        scheduler.advance(by: .milliseconds(1))
        recorder.assertValues(["a"])
        #expect(recorder.timedEvents.first?.time == .seconds(1))
    }

    @Test func debounceTimerIsRestartedByEachValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.debounce(.seconds(2), on: scheduler).record(on: scheduler)
        input.send(1)
        scheduler.advance(by: .seconds(1))
        input.send(2)
        scheduler.advance(by: .seconds(1))
        input.send(3)
        scheduler.advance(by: .milliseconds(1500))
        recorder.assertValues([])
        scheduler.advance(by: .milliseconds(500))
        recorder.assertValues([3])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(4)])
        #expect(!scheduler.hasPendingActions)
    }

    @Test func debounceEmitsPendingValueOnCompletion() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.debounce(.seconds(5), on: scheduler).record(on: scheduler)
        input.send(1)
        input.send(2)
        scheduler.advance(by: .seconds(1))
        input.sendCompleted()
        // Delivered on the scheduler: nothing arrives before it runs its next action.
        recorder.assertEvents([])
        // The pending timer was cancelled; only the delivery of value and completion is left.
        scheduler.advance()
        // Emitted at the time of completion, without waiting for the timer.
        recorder.assertEvents([.value(2), .completed])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(1), .seconds(1)])
        #expect(!scheduler.hasPendingActions)
        scheduler.run()
        recorder.assertEvents([.value(2), .completed])
    }

    @Test func debounceCompletionWithNothingPendingOnlyCompletes() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(1)
        scheduler.advance(by: .seconds(1))
        input.sendCompleted()
        recorder.assertEvents([.value(1)])
        scheduler.advance()
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func debounceMarbles() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.debounce(.seconds(2), on: scheduler).record(on: scheduler)
        scheduler.drive(input, with: "ab---c|")
        scheduler.run()
        recorder.assertMarbles("---b--(c|)")
    }

    @Test func debounceMarblesWithValueTable() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.debounce(.seconds(1), on: scheduler).record(on: scheduler)
        scheduler.drive(input, with: "-a-bc---d-|", values: ["a": 1, "b": 2, "c": 3, "d": 4])
        scheduler.run()
        recorder.assertMarbles("--a--c---d|", values: ["a": 1, "c": 3, "d": 4])
    }

    @Test func debounceMarblesWithCustomFrame() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.debounce(.milliseconds(300), on: scheduler).record(on: scheduler)
        let frame = Duration.milliseconds(100)
        scheduler.drive(input, with: "h-o-m---e---|", frame: frame)
        scheduler.run()
        recorder.assertMarbles("-------m---e|", frame: frame)
    }

    @Test func debounceOfPropertyChangesDrivenByMarbles() {
        let scheduler = TestScheduler()
        let query = MutableProperty("")
        let recorder = query.signal.debounce(.seconds(2), on: scheduler).record(on: scheduler)
        scheduler.drive(query, with: "-ab---c--")
        scheduler.run()
        recorder.assertMarbles("----b---c")
        #expect(query.value == "c")
    }

    // MARK: throttle

    @Test func throttleEmitsFirstValueOnTheSchedulerWithoutDelay() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(1)
        // Every event is delivered on the scheduler, the first value too: it waits for the
        // scheduler's next action, at the same virtual time.
        recorder.assertValues([])
        scheduler.advance()
        recorder.assertValues([1])
        #expect(recorder.timedEvents.first?.time == .zero)
    }

    @Test func throttleEmitsLatestValueAtEndOfWindow() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(1)
        input.send(2)
        input.send(3)
        recorder.assertValues([])
        scheduler.advance()
        recorder.assertValues([1])
        scheduler.advance(by: .milliseconds(999))
        recorder.assertValues([1])
        scheduler.advance(by: .milliseconds(1))
        recorder.assertValues([1, 3])
        #expect(recorder.timedEvents.map(\.time) == [.zero, .seconds(1)])
    }

    @Test func throttleStartsNewWindowAfterEmittingTrailingValue() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(1)
        input.send(2)
        scheduler.advance(by: .seconds(1)) // 1 delivered at 0s, 2 at 1s, new window until 2s
        input.send(3)
        recorder.assertValues([1, 2])
        scheduler.advance(by: .seconds(1))
        recorder.assertValues([1, 2, 3])
        scheduler.advance(by: .seconds(1)) // quiet window: closes
        input.send(4) // leading again: delivered on the next advance
        recorder.assertValues([1, 2, 3])
        scheduler.advance()
        recorder.assertValues([1, 2, 3, 4])
        #expect(recorder.timedEvents.map(\.time) == [.zero, .seconds(1), .seconds(2), .seconds(3)])
    }

    @Test func throttleAfterQuietWindowEmitsImmediately() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.throttle(.seconds(1), on: scheduler).record(on: scheduler)
        input.send(1)
        scheduler.advance(by: .seconds(5))
        input.send(2)
        recorder.assertValues([1])
        scheduler.advance()
        recorder.assertValues([1, 2])
        #expect(recorder.timedEvents.map(\.time) == [.zero, .seconds(5)])
    }

    @Test func throttleEmitsWaitingValueOnCompletion() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.throttle(.seconds(10), on: scheduler).record(on: scheduler)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        recorder.assertEvents([])
        scheduler.advance()
        recorder.assertEvents([.value(1), .value(2), .completed])
        #expect(recorder.timedEvents.allSatisfy { $0.time == .zero })
        #expect(!scheduler.hasPendingActions)
    }

    @Test func throttleMarbles() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.throttle(.seconds(2), on: scheduler).record(on: scheduler)
        scheduler.drive(input, with: "ab-c---d|")
        scheduler.run()
        recorder.assertMarbles("a-b-c--d|")
    }

    // MARK: delay

    @Test func delayShiftsValuesAndCompletion() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.delay(.seconds(2), on: scheduler).record(on: scheduler)
        input.send(1)
        scheduler.advance(by: .seconds(1))
        input.send(2)
        input.sendCompleted()
        recorder.assertEvents([])
        scheduler.advance(by: .seconds(1))
        recorder.assertEvents([.value(1)])
        scheduler.advance(by: .seconds(1))
        recorder.assertEvents([.value(1), .value(2), .completed])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(2), .seconds(3), .seconds(3)])
    }

    @Test func delayMarbles() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.delay(.seconds(2), on: scheduler).record(on: scheduler)
        scheduler.drive(input, with: "-a-b|")
        scheduler.run()
        recorder.assertMarbles("---a-b|")
    }

    @Test func delayKeepsOrderOfSimultaneousValues() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.delay(.seconds(1), on: scheduler).record(on: scheduler)
        for value in 1...5 { input.send(value) }
        input.sendCompleted()
        scheduler.advance(by: .seconds(1))
        recorder.assertEvents([.value(1), .value(2), .value(3), .value(4), .value(5), .completed])
    }

    @Test func delayOnImmediateSchedulerIsPassThrough() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.delay(.seconds(60), on: ImmediateScheduler()).record()
        input.send(1)
        input.sendCompleted()
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func debounceOnImmediateSchedulerIsPassThrough() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.debounce(.seconds(60), on: ImmediateScheduler()).record()
        input.send(1)
        recorder.assertValues([1])
        input.send(2)
        input.sendCompleted()
        recorder.assertEvents([.value(1), .value(2), .completed])
    }

    @Test func throttleOnImmediateSchedulerIsPassThrough() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.throttle(.seconds(60), on: ImmediateScheduler()).record()
        input.send(1)
        input.send(2)
        input.send(3)
        input.sendCompleted()
        recorder.assertEvents([.value(1), .value(2), .value(3), .completed])
    }

    @Test func debounceStopsTimerWhenNobodyObserves() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let subscription = signal.debounce(.seconds(1), on: scheduler).observe { _ in
            Issue.record("value delivered after dispose")
        }
        input.send(1)
        #expect(scheduler.hasPendingActions)
        subscription.dispose()
        #expect(!scheduler.hasPendingActions, "the pending timer is cancelled with the last observer")
        scheduler.run()
    }

    // MARK: observe(on:)

    @Test func observeOnDeliversOnlyWhenSchedulerRuns() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.observe(on: scheduler).record(on: scheduler)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        recorder.assertEvents([])
        scheduler.advance()
        recorder.assertEvents([.value(1), .value(2), .completed])
        #expect(recorder.timedEvents.allSatisfy { $0.time == .zero })
    }

    @Test func observeOnMarblesKeepTiming() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.observe(on: scheduler).record(on: scheduler)
        scheduler.drive(input, with: "-a-(bc)-d|")
        scheduler.run()
        recorder.assertMarbles("-a-(bc)-d|")
    }

    @Test func observeOnImmediateSchedulerDeliversSynchronously() {
        let (signal, input) = Signal<Int>.pipe()
        let recorder = signal.observe(on: ImmediateScheduler()).record()
        input.send(1)
        recorder.assertValues([1])
        input.sendCompleted()
        recorder.assertEvents([.value(1), .completed])
    }

    @Test func observeOnQueueSchedulerDeliversOnItsQueue() {
        let queue = DispatchQueue(label: "timing-tests.observe-on")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "target")
        let scheduler = QueueScheduler(queue: queue)
        let (signal, input) = Signal<Int>.pipe()

        let received = Locked<[Int]>([])
        let onQueue = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let subscription = signal.observe(on: scheduler).observe { value in
            received.append(value)
            onQueue.append(DispatchQueue.getSpecific(key: key) == "target")
        }
        let completion = signal.observe(on: scheduler).observeCompleted { done.signal() }

        input.send(1)
        input.send(2)
        input.send(3)
        input.sendCompleted()
        let result = done.wait(timeout: .now() + .seconds(30))
        #expect(result == .success)
        // The completion of the second chain was scheduled after every value of the first.
        queue.sync {}
        #expect(received.value == [1, 2, 3])
        #expect(onQueue.value == [true, true, true])
        subscription.dispose()
        completion.dispose()
    }

    @Test func debounceOnQueueSchedulerDeliversAfterRealDelay() async {
        let scheduler = QueueScheduler(label: "timing-tests.debounce")
        let (signal, input) = Signal<Int>.pipe()
        let stream = signal.debounce(.milliseconds(50), on: scheduler).values
        input.send(1)
        input.send(2)
        // The first value delivered is the last one sent: 1 waited out its quiet period in
        // real time and was replaced. (No stopwatch: a loaded machine stretches any delay.)
        let result = await firstValue(of: stream, timeout: .seconds(30))
        #expect(result == 2)
        input.sendCompleted()
    }
}
