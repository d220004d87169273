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

/// Properties fed by signals are part of the glitch-free graph: combined with what is
/// derived from the same source they never show a stale pair, they live like `map`, and
/// they skip equal values.
@Suite struct SignalFedPropertyGraphTests {
    /// Whichever is made first (the order decides which the source tells first), the map
    /// or the property fed by the source's signal.
    @Test(arguments: [true, false])
    func aStreamOfASourceCombinedWithAMapOfItNeverShowsAStalePair(mapFirst: Bool) {
        let source = MutableProperty(0)
        let (mapped, fromStream): (Property<Int>, Property<Int>)
        if mapFirst {
            mapped = source.map { $0 }
            fromStream = Property(initial: 0, then: source.signal.map { $0 * 10 })
        } else {
            fromStream = Property(initial: 0, then: source.signal.map { $0 * 10 })
            mapped = source.map { $0 }
        }
        let pairs = Property.combineLatest(mapped, fromStream).record()
        for value in 1...200 { source.value = value }
        let stale = pairs.values.filter { $0.0 * 10 != $0.1 }
        #expect(stale.isEmpty, "\(stale.count) stale pairs in \(pairs.values.count)")
        #expect(pairs.values.count == 201, "one change per change of the source")
    }

    @Test func theIssuesOwnExampleShowsNoStalePair() {
        let a = MutableProperty(0)
        let pairs = Property.combineLatest(a.map { $0 + 1 }, Property(initial: 0, then: a.signal.map { $0 * 2 }))
            .record()
        for value in 1...200 { a.value = value }
        #expect(pairs.values.dropFirst().allSatisfy { ($0.0 - 1) * 2 == $0.1 })
        #expect(pairs.values.count == 201)
    }

    @Test(arguments: [true, false])
    func aFlatMapLatestOfASourceCombinedWithAMapOfItNeverShowsAStalePair(mapFirst: Bool) {
        let source = MutableProperty(0)
        let inners = (0...200).map { MutableProperty($0 * 10) }
        let (mapped, followed): (Property<Int>, Property<Int>)
        if mapFirst {
            mapped = source.map { $0 }
            followed = source.flatMapLatest { inners[$0] }
        } else {
            followed = source.flatMapLatest { inners[$0] }
            mapped = source.map { $0 }
        }
        let pairs = Property.combineLatest(mapped, followed).record()
        for value in 1...200 { source.value = value }
        let stale = pairs.values.filter { $0.0 * 10 != $0.1 }
        #expect(stale.isEmpty, "\(stale.count) stale pairs in \(pairs.values.count)")
        #expect(pairs.values.count == 201)
    }

    @Test func aChainBehindTheCombinationSeesOneConsistentChange() {
        let source = MutableProperty(1)
        let doubled = source.map { $0 * 2 }
        let label = Property(initial: "1", then: source.signal.map { "\($0)" })
        let line = Property.combineLatest(doubled, label).map { "\($0.1) x2 = \($0.0)" }
        let both = Property.combineLatest(line, source).record()
        source.value = 2
        source.value = 3
        both.assertValues([("1 x2 = 2", 1), ("2 x2 = 4", 2), ("3 x2 = 6", 3)], by: ==)
    }

    @Test func anObservedStreamPropertyKeepsGoingWhenNobodyKeepsIt() {
        let (values, input) = Signal<Int>.pipe()
        let recorder = Property(initial: 0, then: values).map { $0 + 1 }.record()
        input.send(1)
        input.send(2)
        recorder.assertValues([1, 2, 3])
        #expect(!recorder.isCompleted)
    }

    @Test func aFlatMapLatestNobodyKeepsKeepsGoingWhileObserved() {
        let selected = MutableProperty(0)
        let inners = [MutableProperty(1), MutableProperty(2)]
        let recorder = selected.flatMapLatest { inners[$0] }.record()
        inners[0].value = 10
        selected.value = 1
        recorder.assertValues([1, 10, 2])
        #expect(!recorder.isCompleted)
    }

    @Test func itCompletesWithItsSignalAndKeepsTheLastValue() {
        let (values, input) = Signal<Int>.pipe()
        let property = Property(initial: 0, then: values)
        let recorder = property.record()
        input.send(4)
        input.sendCompleted()
        recorder.assertEvents([.value(0), .value(4), .completed])
        #expect(property.value == 4)
    }

    @Test func equalValuesAreSkippedAsMapSkipsThem() {
        let (values, input) = Signal<Int>.pipe()
        let property = Property(initial: 0, then: values)
        let recorder = property.record()
        for value in [0, 1, 1, 2, 2, 2, 1] { input.send(value) }
        recorder.assertValues([0, 1, 2, 1])
        let selected = MutableProperty(0)
        let inners = [MutableProperty(5), MutableProperty(5)]
        let followed = selected.flatMapLatest { inners[$0] }.record()
        selected.value = 1
        inners[1].value = 5
        followed.assertValues([5])
    }

    @Test func aStalePairNeverShowsWhileOtherThreadsChangeOtherSources() async {
        // The pair's source changes on one thread while unrelated properties, also fed by
        // signals, change on others: every pair is consistent.
        let source = MutableProperty(0)
        let mapped = source.map { $0 }
        let fromStream = Property(initial: 0, then: source.signal.map { -$0 })
        let pairs = Property.combineLatest(mapped, fromStream)
        let stale = Locked(0)
        let seen = Locked(0)
        let observation = pairs.observe { pair in
            _ = seen.increment()
            if pair.0 != -pair.1 { _ = stale.increment() }
        }
        await onThreads(3) { thread in
            if thread == 0 {
                for value in 1...300 { source.value = value }
            } else {
                let other = MutableProperty(0)
                let fed = Property(initial: 0, then: other.signal)
                let both = Property.combineLatest(other, fed)
                let check = both.observe { _ in }
                for value in 1...300 { other.value = value }
                check.dispose()
            }
        }
        #expect(stale.value == 0)
        #expect(seen.value == 301)
        observation.dispose()
    }
}

/// `withBatchedChanges`: several sources changed in one intent give one derived change.
@Suite struct BatchedChangesTests {
    @Test func aCombinationOfTwoSourcesChangedInOneBatchChangesOnce() {
        let isLoading = MutableProperty(true)
        let problem = MutableProperty<String?>(nil)
        let state = Property.combineLatest(isLoading, problem).map { "\($0) \($1 ?? "-")" }.record()
        withBatchedChanges {
            isLoading.value = false
            problem.value = "offline"
        }
        state.assertValues(["true -", "false offline"])
    }

    @Test func eachSourceAndItsMapSeeTheirChangeAtOnce() {
        let count = MutableProperty(0)
        let other = MutableProperty(0)
        let seen = Locked<[String]>([])
        let direct = count.observe { seen.append("count \($0)") }
        let mapped = count.map { $0 * 2 }.observe { seen.append("double \($0)") }
        let combined = Property.combineLatest(count, other).observe { seen.append("pair \($0) \($1)") }
        seen.value = []
        withBatchedChanges {
            count.value = 1
            seen.append("inside")
            other.value = 1
        }
        #expect(seen.value == ["count 1", "double 2", "inside", "pair 1 1"])
        direct.dispose()
        mapped.dispose()
        combined.dispose()
    }

    @Test func readsInsideABatchSeeTheNewValues() {
        let a = MutableProperty(1)
        let b = MutableProperty(1)
        let sum = Property.combineLatest(a, b).map { $0 + $1 }
        let observed = sum.record()
        withBatchedChanges {
            a.value = 2
            #expect(sum.value == 3)
            b.value = 5
            #expect(sum.value == 7)
        }
        observed.assertValues([2, 7])
    }

    @Test func batchesNestAndTheOutermostEndsThem() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let c = MutableProperty(0)
        let all = Property.combineLatest(a, b, c).map { $0 + $1 + $2 }.record()
        withBatchedChanges {
            a.value = 1
            withBatchedChanges { b.value = 10 }
            c.value = 100
        }
        all.assertValues([0, 111])
    }

    @Test func aCombinationOfCombinationsChangesOnce() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let c = MutableProperty(0)
        let inner = Property.combineLatest(a, b).map { $0 + $1 }
        let outer = Property.combineLatest(inner, c).map { $0 * 1_000 + $1 }.record()
        withBatchedChanges {
            a.value = 1
            c.value = 3
            b.value = 2
        }
        outer.assertValues([0, 3_003])
    }

    @Test func aChangeMadeByAnObserverAtTheEndOfABatchIsDeliveredToo() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let echo = MutableProperty(0)
        let pair = Property.combineLatest(a, b)
        let writer = pair.signal.observe { echo.value = $0.0 + $0.1 }
        let both = Property.combineLatest(pair.map { $0.0 + $0.1 }, echo).record()
        withBatchedChanges {
            a.value = 1
            b.value = 2
        }
        #expect(both.values.last.map { $0.0 == 3 && $0.1 == 3 } == true)
        writer.dispose()
    }

    @Test func aBatchReturnsWhatItsBodyReturnsAndPassesItsErrorsOn() throws {
        struct Refused: Error {}
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let pair = Property.combineLatest(a, b).record()
        #expect(withBatchedChanges { 7 } == 7)
        #expect(throws: Refused.self) {
            try withBatchedChanges {
                a.value = 1
                b.value = 1
                throw Refused()
            }
        }
        pair.assertValues([(0, 0), (1, 1)], by: ==)
        a.value = 2
        pair.assertValues([(0, 0), (1, 1), (2, 1)], by: ==)
    }

    @Test func anActivityChangesItsRunningAndFailureInOneStep() {
        let scheduler = TestScheduler()
        let activity = Activity<WorkFailure>()
        let state = Property.combineLatest(activity.isRunning, activity.failure.map { $0 != nil }).record()
        let failing = ColdWork(scheduler, [(1, .failure(.offline))])
        let run = activity.track(failing.producer).start(value: { _ in }, failed: { _ in }, completed: {})
        scheduler.advance(by: .seconds(1))
        // Starting: running; failing: not running and failed, in one change each.
        state.assertValues([(false, false), (true, false), (false, true)], by: ==)
        run.dispose()
    }
}

extension SignalFedPropertyGraphTests {
    @Test(.tags(.regression)) func aCombinationThatCompletesWhileItWaitsSendsItsChangeFirst() {
        // The signal-fed input takes its last value and completes in the same change: the
        // combination sends that change before completing, so what derives from it settles.
        let root = MutableProperty(0)
        let last = Property(initial: -1, then: root.signal.take(first: 1))
        let pair = Property.combineLatest(last, Property(value: 0)).map { first, _ in first }
        let derived = Property.combineLatest(pair, root).map { first, second in first * 100 + second }.record()
        root.value = 5
        root.value = 6
        derived.assertValues([-100, 505, 506])
    }
}
