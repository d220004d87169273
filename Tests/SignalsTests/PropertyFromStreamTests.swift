import Signals
import SignalsTesting
import Testing

@Suite struct PropertyFromStreamTests {
    @Test func holdsTheInitialValueThenEachValueSent() {
        let (values, send) = Signal<Int>.pipe()
        let property = Property(initial: 0, then: values)
        let recorder = property.record()
        send.send(1)
        send.send(2)
        #expect(property.value == 2)
        recorder.assertValues([0, 1, 2])
    }

    @Test func keepsTheLastValueAfterTheSignalCompletes() {
        let (values, send) = Signal<Int>.pipe()
        let property = Property(initial: 0, then: values)
        send.send(5)
        send.sendCompleted()
        #expect(property.value == 5)
    }

    @Test func startsTheSignalsWorkAndStopsItWhenFreed() {
        let stopped = Locked(false)
        // Nobody else holds the signal, so its work stops once the property lets it go.
        var property: Property<Int>? = Property(
            initial: 0,
            then: Signal<Int> { input in
                input.send(9)
                return AnyDisposable {
                    stopped.value = true
                    withExtendedLifetime(input) {}
                }
            })
        #expect(property?.value == 9)
        #expect(!stopped.value)
        property = nil
        #expect(stopped.value)
    }

    @Test func aDerivedPropertyKeepsItAlive() {
        let (values, send) = Signal<Int>.pipe()
        let doubled = Property(initial: 1, then: values).map { $0 * 2 }
        send.send(4)
        #expect(doubled.value == 8)
    }

    @Test func flatMapLatestFollowsThePropertyMadeFromTheCurrentValue() {
        let folders = [MutableProperty(["a"]), MutableProperty(["b"])]
        let selected = MutableProperty(0)
        let rows = selected.flatMapLatest { folders[$0] }
        let recorder = rows.record()
        folders[0].value = ["a", "a2"]
        selected.value = 1
        folders[0].value = ["ignored: no longer selected"]
        folders[1].value = ["b", "b2"]
        #expect(rows.value == ["b", "b2"])
        recorder.assertValues([["a"], ["a", "a2"], ["b"], ["b", "b2"]])
    }

    @Test func flatMapLatestLetsGoOfTheInnerItLeaves() {
        let tracker = ReleaseTracker()
        let selected = MutableProperty(0)
        var inner: MutableProperty<Int>? = MutableProperty(10)
        tracker.track(inner!, "first inner")
        let captured = Locked<MutableProperty<Int>?>(inner)
        inner = nil
        let other = MutableProperty(20)
        let value = selected.flatMapLatest { index -> Property<Int> in
            if index == 0, let first = captured.value { return first }
            return other
        }
        #expect(value.value == 10)
        captured.value = nil
        selected.value = 1
        #expect(value.value == 20)
        tracker.assertAllReleased()
    }
}

@Suite struct CurrentAndChangesTests {
    @Test func eachObserverGetsTheValueCurrentWhenItArrivesThenTheChanges() {
        let property = MutableProperty(1)
        let values = property.currentAndChanges
        property.value = 2
        let early = values.record()
        property.value = 3
        let late = values.record()
        property.value = 4
        early.assertValues([2, 3, 4])
        late.assertValues([3, 4])
    }

    @Test func aSampleGetsTheCurrentValueBeforeAnyChange() {
        let form = MutableProperty("draft")
        let (taps, tap) = Signal<Void>.pipe()
        let submitted = taps.withLatest(from: form.currentAndChanges) { _, text in text }.record()
        tap.send()
        form.value = "final"
        tap.send()
        submitted.assertValues(["draft", "final"])
    }

    @Test func freeingThePropertyCompletesItAsItCompletesTheProperty() {
        var property: MutableProperty<Int>? = MutableProperty(0)
        let recorder = property!.currentAndChanges.record()
        property?.value = 1
        property = nil
        recorder.assertEvents([.value(0), .value(1), .completed])
    }
}

@Suite struct ActivityTests {
    @Test func countsRunsInFlightAndKeepsTheLastFailureUntilTheNextStart() {
        let scheduler = TestScheduler()
        let activity = Activity<WorkFailure>()
        let running = activity.isRunning.record()
        let failures = activity.failure.record()
        let slow = ColdWork(scheduler, [(2, .value("slow")), (2, .completed)])
        let failing = ColdWork(scheduler, [(1, .failure(.offline))])
        activity.track(slow.producer).start(value: { _ in }, failed: { _ in })
        activity.track(failing.producer).start(value: { _ in }, failed: { _ in })
        scheduler.advance(by: .seconds(1))
        #expect(activity.isRunning.value)
        #expect(activity.failure.value == .offline)
        scheduler.advance(by: .seconds(1))
        #expect(!activity.isRunning.value)
        activity.track(slow.producer).start(value: { _ in }, failed: { _ in })
        #expect(activity.failure.value == nil)
        scheduler.run()
        running.assertValues([false, true, false, true, false])
        failures.assertValues([nil, .offline, nil])
    }

    @Test func aDisposedRunStopsCountingWithoutAFailure() {
        let scheduler = TestScheduler()
        let activity = Activity<WorkFailure>()
        let work = ColdWork(scheduler, [(5, .completed)])
        let run = activity.track(work.producer).start(value: { _ in }, failed: { _ in })
        #expect(activity.isRunning.value)
        run.dispose()
        run.dispose()
        #expect(!activity.isRunning.value)
        #expect(activity.failure.value == nil)
        #expect(work.stops.value == 1)
    }

    @Test func theTrackerKnowsBeforeTheRunsObserver() {
        let activity = Activity<WorkFailure>()
        let seen = Locked<[String]>([])
        activity.track(Producer<Int, WorkFailure>(failure: .offline)).start(
            value: { _ in },
            failed: { _ in
                seen.append(
                    "failed, running: \(activity.isRunning.value), failure: \(activity.failure.value.map { "\($0)" } ?? "none")"
                )
            })
        #expect(seen.value == ["failed, running: false, failure: offline"])
    }

    @Test func followsTheRunsAndErrorsOfActions() async throws {
        let gate = AsyncGate()
        let activity = Activity<any Error>()
        let save = Action<Int, Int> { value in
            await gate.wait()
            if value < 0 { throw WorkFailure.offline }
            return value
        }
        let other = Action<Void, Void> {}
        activity.track(save)
        activity.track(other)
        let running = activity.isRunning.record()
        // Started here, so it runs from now on, however busy the machine is.
        #expect(save.apply(-1))
        #expect(activity.isRunning.value)
        gate.open()
        // The run's task needs a thread; under a loaded full run under the thread sanitizer
        // that can take a while.
        _ = try await activity.isRunning.first(where: { !$0 }, timeout: .seconds(60))
        #expect(activity.failure.value as? WorkFailure == .offline)
        try await other.run()
        #expect(activity.failure.value == nil)
        running.assertValues([false, true, false, true, false])
    }

    @Test func aSearchBindsItsSpinnerAndProblemToOneTracker() {
        let scheduler = TestScheduler()
        let activity = Activity<WorkFailure>()
        let (queries, send) = Signal<String>.pipe()
        let rows = queries.flatMapLatest { query in
            activity.track(
                Producer<[String], WorkFailure> { input in
                    scheduler.schedule(after: .seconds(1)) {
                        if query == "x" { input.send(failure: .offline) } else { input.send([query]) }
                        input.sendCompleted()
                    }
                }
            ).replaceError(with: [])
        }.record()
        send.send("a")
        #expect(activity.isRunning.value)
        scheduler.advance(by: .seconds(1))
        send.send("x")
        scheduler.advance(by: .seconds(1))
        #expect(activity.failure.value == .offline)
        #expect(!activity.isRunning.value)
        rows.assertValues([["a"], []])
    }
}
