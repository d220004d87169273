import Signals
import SignalsTesting
import Testing

/// `Activity.track(_:)` of a plain signal: its one run, from its first observer to its
/// completion or until it is let go of.
extension ActivityTests {
    @Test func aTrackedSignalRunsFromItsFirstObserverUntilItCompletes() {
        let activity = Activity<WorkFailure>()
        let running = activity.isRunning.record()
        let (source, input) = Signal<Int>.pipe()
        let tracked = activity.track(source)
        #expect(!activity.isRunning.value, "nothing observes it yet")
        let values = tracked.record()
        let second = tracked.record()
        #expect(activity.isRunning.value)
        input.send(1)
        input.sendCompleted()
        #expect(!activity.isRunning.value)
        values.assertEvents([.value(1), .completed])
        second.assertEvents([.value(1), .completed])
        running.assertValues([false, true, false])
    }

    /// Work that is neither a producer nor a signal (a call telling its logic directly)
    /// tells the activity beside it: counted from `begin()` to the first call of its end.
    @Test func aRunBegunByHandCountsUntilItsEndIsCalledOnceWithItsFailure() {
        let activity = Activity<WorkFailure>()
        let running = activity.isRunning.record()
        let failures = activity.failure.record()
        let first = activity.begin()
        let second = activity.begin()
        first(.offline)
        first(nil) // only the first call counts: the run is not ended twice
        #expect(activity.isRunning.value, "the second run is still on its way")
        #expect(activity.failure.value == .offline)
        second(nil)
        let third = activity.begin()
        #expect(activity.failure.value == nil, "a start clears the failure")
        third(.timedOut)
        running.assertValues([false, true, false, true, false])
        failures.assertValues([nil, .offline, nil, .timedOut])
    }

    @Test func aTrackedSignalThatIsLetGoOfStopsCountingAndStopsItsWork() {
        let activity = Activity<WorkFailure>()
        let stops = Locked(0)
        let kept = Locked<Signal<Int>.Input?>(nil)
        // Nobody but the tracked signal holds the work, so letting go of it stops the work.
        let observation = activity.track(
            Signal<Int> { input in
                kept.value = input // freeing the input would complete the signal
                return AnyDisposable { stops.increment() }
            }
        ).observe { _ in }
        #expect(activity.isRunning.value)
        observation.dispose()
        #expect(!activity.isRunning.value)
        #expect(stops.value == 1)
        #expect(activity.failure.value == nil)
    }

    @Test func aTrackedSignalsStartClearsTheFailureAndItsEndIsKnownBeforeItsObserverIsTold() {
        let activity = Activity<WorkFailure>()
        activity.track(Producer<Int, WorkFailure>(failure: .offline)).start(value: { _ in }, failed: { _ in })
        #expect(activity.failure.value == .offline)
        let seen = Locked<[String]>([])
        let observation = activity.track(Signal(value: 3)).observe { value in
            seen.append("value \(value), running: \(activity.isRunning.value)")
        }
        let completion = activity.track(Signal<Int>.empty).observeCompleted {
            seen.append("completed, running: \(activity.isRunning.value)")
        }
        [observation, completion].forEach { $0.dispose() }
        #expect(activity.failure.value == nil)
        #expect(seen.value == ["value 3, running: true", "completed, running: false"])
    }

    @Test func aSearchOverSignalsCountsOnlyTheInnerThatRuns() {
        let activity = Activity<WorkFailure>()
        let (queries, query) = Signal<String>.pipe()
        let inners = Locked<[String: Signal<[String]>.Input]>([:])
        let rows = queries.flatMapLatest { text in
            activity.track(
                Signal<[String]> { input in
                    inners.withLock { $0[text] = input }
                    return AnyDisposable {}
                })
        }.record()
        let running = activity.isRunning.record()
        query.send("lo")
        query.send("loft")
        #expect(activity.isRunning.value, "the newer search runs")
        inners.value["lo"]?.send(["stale"])
        inners.value["loft"]?.send(["loft 1"])
        #expect(activity.isRunning.value)
        inners.value["loft"]?.sendCompleted()
        #expect(!activity.isRunning.value, "the search it left was counted as ended")
        rows.assertValues([["loft 1"]])
        // The search it leaves ends before the next starts (as for producers, 7.8a).
        running.assertValues([false, true, false, true, false])
    }
}
