import Signals
import SignalsTesting
import Testing

/// `flatMap` with each strategy, in virtual time: each outer value names a cold inner
/// run whose events fall at offsets from its start (ReactiveSwift's flatten specs and
/// RxSwift's `flatMapFirst`/`concatMap` tests, with recorded timelines).
@Suite struct FlatMapTests {
    /// Inner work per outer value: "x" sends x1 at +1 s, x2 at +2 s, then completes at +3 s.
    private static func work(_ scheduler: TestScheduler, starts: Locked<[String]>)
        -> @Sendable (String) -> Signal<
            String
        >
    {
        { name in
            Signal { input in
                starts.append(name)
                let steps = [
                    scheduler.schedule(after: .seconds(1)) { input.send("\(name)1") },
                    scheduler.schedule(after: .seconds(2)) { input.send("\(name)2") },
                    scheduler.schedule(after: .seconds(3)) { input.sendCompleted() },
                ]
                return AnyDisposable {
                    starts.append("stop \(name)")
                    steps.forEach { $0.dispose() }
                }
            }
        }
    }

    private func run(_ strategy: FlattenStrategy, outer diagram: String) -> (Recorder<String>, [String]) {
        let scheduler = TestScheduler()
        let starts = Locked<[String]>([])
        let (outer, send) = Signal<String>.pipe()
        let recorder = outer.flatMap(strategy, Self.work(scheduler, starts: starts)).record(on: scheduler)
        scheduler.drive(send, with: diagram, frame: .seconds(1))
        scheduler.run()
        return (recorder, starts.value)
    }

    @Test func mergeRunsEveryInnerAtOnceAndCompletesAfterTheLast() {
        let (recorder, starts) = run(.merge, outer: "ab|")
        recorder.assertMarbles("-p(rq)s|", values: ["p": "a1", "r": "a2", "q": "b1", "s": "b2"])
        #expect(starts == ["a", "b", "stop a", "stop b"])
    }

    @Test func mergeWithALimitQueuesValuesInOrder() {
        let (recorder, starts) = run(.merge(limit: 2), outer: "abc|")
        #expect(recorder.values == ["a1", "a2", "b1", "b2", "c1", "c2"])
        // An inner's work is let go just after its completion has started the next one.
        #expect(starts == ["a", "b", "c", "stop a", "stop b", "stop c"])
        #expect(recorder.timedEvents.map(\.time) == [1, 2, 2, 3, 4, 5, 6].map { Duration.seconds($0) })
    }

    @Test func concatRunsOneAtATimeInOrder() {
        let (recorder, starts) = run(.concat, outer: "abc|")
        #expect(recorder.values == ["a1", "a2", "b1", "b2", "c1", "c2"])
        #expect(starts == ["a", "b", "stop a", "c", "stop b", "stop c"])
        #expect(recorder.isCompleted)
        #expect(recorder.timedEvents.last?.time == .seconds(9))
    }

    @Test func latestStopsTheRunningInnerForTheNewOne() {
        let (recorder, starts) = run(.latest, outer: "a-b|")
        #expect(recorder.values == ["a1", "b1", "b2"])
        #expect(starts == ["a", "stop a", "b", "stop b"])
        #expect(recorder.timedEvents.last?.time == .seconds(5))
    }

    /// RxSwift's `flatMapFirst`: values that arrive while an inner runs are dropped.
    @Test func firstDropsValuesWhileAnInnerRuns() {
        let (recorder, starts) = run(.first, outer: "abc-d|")
        #expect(recorder.values == ["a1", "a2", "d1", "d2"])
        #expect(starts == ["a", "stop a", "d", "stop d"])
    }

    @Test func anEmptyOuterCompletesAtOnceAndAnOuterWaitsForItsInners() {
        let (empty, _) = run(.merge, outer: "|")
        #expect(empty.events.count == 1)
        empty.expectCompleted()
        let (waiting, _) = run(.concat, outer: "a|")
        #expect(waiting.timedEvents.last?.time == .seconds(3))
    }

    @Test func disposingStopsEveryRunningInnerAndDropsWaitingValues() {
        let scheduler = TestScheduler()
        let starts = Locked<[String]>([])
        let (outer, send) = Signal<String>.pipe()
        let values = Locked<[String]>([])
        let subscription = outer.flatMap(.merge(limit: 2), Self.work(scheduler, starts: starts)).observe {
            values.append($0)
        }
        send.send("a")
        send.send("b")
        send.send("c")
        scheduler.advance(by: .seconds(1))
        subscription.dispose()
        scheduler.run()
        #expect(values.value == ["a1", "b1"])
        #expect(starts.value == ["a", "b", "stop a", "stop b"])
    }

    /// Found by a review: a step queued before the last observer left still started the
    /// next waiting inner, after `dispose()` had returned.
    @Test func disposingFromAnObserverStartsNoWaitingInner() {
        let (first, finishFirst) = Signal<Int>.pipe()
        let started = Locked<[Int]>([])
        let (outer, send) = Signal<Int>.pipe()
        let subscription = Locked<Disposable?>(nil)
        subscription.value = outer.flatMap(.concat) { index -> Signal<Int> in
            started.append(index)
            switch index {
            case 0: return first
            case 1: return Signal(values: [1])
            default: return Signal.never
            }
        }.observe { value in if value == 1 { subscription.value?.dispose() } }
        send.send(0)
        send.send(1)
        send.send(2)
        finishFirst.sendCompleted()
        #expect(started.value == [0, 1])
    }

    /// Found by a review: with a steady backlog, every value that ever waited was kept.
    @Test func aSteadyBacklogKeepsOnlyTheValuesStillWaiting() {
        final class Token: Sendable {}
        let tracker = ReleaseTracker()
        let inners = Locked<[Signal<Int>.Input]>([])
        let (outer, send) = Signal<Token>.pipe()
        let subscription = outer.flatMap(.concat) { _ -> Signal<Int> in
            let (signal, input) = Signal<Int>.pipe()
            inners.append(input)
            return signal
        }.observe { _ in }
        for index in 0..<3 {
            let token = Token()
            tracker.track(token, "token \(index)")
            send.send(token)
        }
        for index in 3..<1000 {
            inners.value.last?.sendCompleted()
            let token = Token()
            tracker.track(token, "token \(index)")
            send.send(token)
        }
        #expect(tracker.alive.count < 80)
        subscription.dispose()
    }

    @Test func withoutAStrategyFlatMapMerges() {
        let (outer, send) = Signal<Int>.pipe()
        let merged = outer.flatMap { value in Producer<Int, Never>(value: value * 10) }.record()
        send.send(1)
        send.send(2)
        merged.assertValues([10, 20])
    }

    @Test func aTransformMakingAnUnownedSignalStillStartsIt() {
        let (outer, send) = Signal<Int>.pipe()
        let recorder = outer.flatMap(.merge) { value in
            Signal<Int> { input in
                input.send(value * 10)
                input.sendCompleted()
                return AnyDisposable {}
            }
        }.record()
        send.send(1)
        send.send(2)
        recorder.assertValues([10, 20])
        let latest = outer.flatMapLatest { value in
            Signal<Int> { input in
                input.send(value)
                return AnyDisposable {}
            }
        }.record()
        send.send(3)
        latest.assertValues([3])
    }

    @Test func innerValuesSentAtOnceFollowTheValueThatStartedThemInOrder() {
        let (outer, send) = Signal<Int>.pipe()
        let seen = Locked<[String]>([])
        let flattened = outer.flatMap(.merge) { value in Producer<Int, Never>(value: value) }
        flattened.observe { value in
            seen.append("inner \(value)")
            // Re-entrant: a value sent from inside an observer is queued behind this delivery.
            if value == 1 { send.send(2) }
        }
        outer.observe { seen.append("outer \($0)") }
        send.send(1)
        #expect(seen.value == ["inner 1", "outer 1", "inner 2", "outer 2"])
    }

    @Test func aFailingProducerEndsItsRunOnlyAndArrivesAsAValue() {
        let (queries, send) = Signal<String>.pipe()
        let results = queries.flatMap(.concat) { query in
            query == "bad" ? Producer<String, WorkFailure>(failure: .offline) : Producer(value: query.uppercased())
        }
        let rows = results.successes().record()
        let problems = results.failures().record()
        send.send("a")
        send.send("bad")
        send.send("b")
        send.sendCompleted()
        rows.assertEvents([.value("A"), .value("B"), .completed])
        problems.assertEvents([.value(.offline), .completed])
    }

    @Test func flatMapLatestCancelsTheTaskOfTheRunItLeaves() async throws {
        let cancelled = AsyncGate()
        let (queries, send) = Signal<String>.pipe()
        let rows = queries.flatMapLatest { query in
            Producer<String, Never> {
                if query == "slow" {
                    await withTaskCancellationHandler {
                        await cancelled.wait()
                    } onCancel: {
                        cancelled.open()
                    }
                }
                return query
            }
        }
        let recorder = rows.record()
        send.send("slow")
        send.send("fast")
        await cancelled.wait()
        let values = try await recorder.values(count: 1)
        #expect(values == ["fast"])
    }

    @Test func aSearchRetriesThenFallsBackPerQuery() {
        let scheduler = TestScheduler()
        let attempts = Locked<[String]>([])
        let search: @Sendable (String) -> Producer<[String], WorkFailure> = { query in
            Producer { input in
                attempts.append(query)
                let step = scheduler.schedule(after: .seconds(1)) {
                    if query.hasPrefix("x") { input.send(failure: .offline) } else { input.send([query]) }
                    input.sendCompleted()
                }
                return step
            }
        }
        let (queries, send) = Signal<String>.pipe()
        let rows =
            queries
            .debounce(.seconds(1), on: scheduler)
            .flatMapLatest { search($0).retry(upTo: 1, after: .seconds(2), on: scheduler).replaceError(with: []) }
            .record(on: scheduler)
        scheduler.drive(send, with: "ab------xy-------|", values: ["a": "a", "b": "ab", "x": "x", "y": "xy"])
        scheduler.run()
        #expect(rows.values == [["ab"], []])
        #expect(attempts.value == ["ab", "xy", "xy"])
        #expect(rows.isCompleted)
    }
}
