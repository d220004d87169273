import Signals
import SignalsTesting
import Testing

/// `Signal`'s operators on each run of a `Producer`, by `lift`, and the constructors and
/// operators that ported RxSwift and ReactiveSwift code wrote by hand before.
@Suite struct ProducerLiftTests {
    // MARK: Lifting

    @Test func aLiftedOperatorStartsOverOnEveryRun() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .value("b")), (3, .completed)])
        let joined = work.producer.scan("") { $0 + $1 }
        let first = record(joined, on: scheduler)
        scheduler.run()
        let second = record(joined, on: scheduler)
        scheduler.run()
        first.assertEvents([.value(.success("a")), .value(.success("ab")), .completed])
        second.assertEvents([.value(.success("a")), .value(.success("ab")), .completed])
        #expect(work.starts.value == 2)
    }

    @Test func aFailurePassesThroughLiftedOperatorsAndEndsTheRun() {
        let scheduler = TestScheduler()
        let work = ColdWork(
            scheduler, [(1, .value("a")), (2, .value("bb")), (3, .failure(.offline)), (4, .value("c"))])
        let lengths = work.producer.filter { $0.count > 1 }.map(\.count).skipRepeats()
        let recorder = record(lengths, on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success(2)), .value(.failure(.offline)), .completed])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(2), .seconds(3), .seconds(3)])
        #expect(work.stops.value == 1)
    }

    @Test func anOperatorThatCompletesEndsTheRunAndStopsItsWork() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .value("b")), (3, .value("c")), (4, .completed)])
        let recorder = record(work.producer.take(first: 2), on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("a")), .value(.success("b")), .completed])
        #expect(recorder.timedEvents.last?.time == .seconds(2))
        #expect(work.stops.value == 1)
    }

    @Test func aFailureIsNotHeldBackByATimingOperator() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("typed")), (2, .failure(.offline))])
        let recorder = record(work.producer.debounce(.seconds(5), on: scheduler), on: scheduler)
        scheduler.run()
        // The value the debounce held is dropped; the failure comes when it happens.
        recorder.assertEvents([.value(.failure(.offline)), .completed])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(2), .seconds(2)])
    }

    @Test func liftTakesAnyChainOfSignalOperators() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .value("a")), (3, .value("b")), (4, .completed)])
        let changes = work.producer.lift { $0.skipRepeats().combinePrevious(initial: "-").map { "\($0)\($1)" } }
        let recorder = record(changes, on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("-a")), .value(.success("ab")), .completed])
    }

    @Test func aRunDisposedBeforeItEndsStopsBothTheWorkAndTheOperator() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (3, .value("b")), (4, .completed)])
        let values = Locked<[String]>([])
        let run = work.producer.delay(.seconds(1), on: scheduler).start(value: { values.append($0) }, failed: { _ in })
        scheduler.advance(by: .seconds(1))
        run.dispose()
        scheduler.run()
        #expect(values.value.isEmpty, "the delayed value was dropped with the run")
        #expect(work.stops.value == 1)
    }

    // MARK: Constructors and the habits of ported code

    @Test func aValueAfterADelayIsAProducerOfOneValueDelayed() {
        let scheduler = TestScheduler()
        let recorder = record(Producer<Int, WorkFailure>(value: 7).delay(.seconds(2), on: scheduler), on: scheduler)
        scheduler.advance(by: .seconds(1))
        recorder.assertEvents([])
        scheduler.advance(by: .seconds(1))
        recorder.assertEvents([.value(.success(7)), .completed])
    }

    @Test func prefixSendsItsValueFirstOnEveryRun() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("fresh")), (2, .completed)])
        let rows = work.producer.prefix(value: "cached")
        for _ in 0..<2 {
            let recorder = record(rows, on: scheduler)
            scheduler.run()
            recorder.assertEvents([.value(.success("cached")), .value(.success("fresh")), .completed])
        }
    }

    @Test func valuesEmptyAndNeverMakeTheRunsTheyName() {
        let scheduler = TestScheduler()
        let steps = record(Producer<String, WorkFailure>(values: ["Address", "Payment"]), on: scheduler)
        steps.assertEvents([.value(.success("Address")), .value(.success("Payment")), .completed])
        record(Producer<String, WorkFailure>.empty, on: scheduler).assertEvents([.completed])
        let never = Producer<String, WorkFailure>.never.on(disposed: {})
        let waiting = record(never, on: scheduler)
        scheduler.run()
        waiting.assertEvents([])
    }

    @Test func observeOnDeliversValuesAndTheFailureOnTheSchedulerInOrder() {
        let source = TestScheduler()
        let target = TestScheduler()
        let work = ColdWork(source, [(1, .value("a")), (1, .failure(.offline))])
        let events = Locked<[String]>([])
        work.producer.observe(on: target).start(
            value: { events.append("value \($0)") }, failed: { events.append("failed \($0)") })
        source.run()
        #expect(events.value.isEmpty, "nothing is delivered before the target scheduler runs")
        target.run()
        #expect(events.value == ["value a", "failed offline"])
    }

    @Test func startOnStartsTheWorkOnTheScheduler() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(0, .value("a")), (0, .completed)])
        let worker = TestScheduler()
        let recorder = record(work.producer.start(on: worker), on: scheduler)
        #expect(work.starts.value == 0)
        worker.run()
        #expect(work.starts.value == 1)
        scheduler.run()
        recorder.assertEvents([.value(.success("a")), .completed])

        let cancelled = work.producer.start(on: worker).start(value: { _ in }, failed: { _ in })
        cancelled.dispose()
        worker.run()
        #expect(work.starts.value == 1, "a run disposed before the scheduler got to it never starts")
    }

    @Test func onTellsEveryStageOfARunOnce() {
        let scheduler = TestScheduler()
        let events = Locked<[String]>([])
        func traced(_ steps: [(Int, ColdWork.Step)]) -> Producer<String, WorkFailure> {
            ColdWork(scheduler, steps).producer.on(
                started: { events.append("started") },
                value: { events.append("value \($0)") },
                failed: { events.append("failed \($0)") },
                completed: { events.append("completed") },
                disposed: { events.append("disposed") })
        }
        traced([(1, .value("a")), (2, .completed)]).start(value: { _ in }, failed: { _ in })
        scheduler.run()
        #expect(events.value == ["started", "value a", "completed", "disposed"])
        events.value = []
        traced([(1, .failure(.offline))]).start(value: { _ in }, failed: { _ in })
        scheduler.run()
        #expect(events.value == ["started", "failed offline", "disposed"])
        events.value = []
        let run = traced([(5, .value("late"))]).start(value: { _ in }, failed: { _ in })
        run.dispose()
        scheduler.run()
        #expect(events.value == ["started", "disposed"])
    }

    // MARK: Flattening producers of producers

    @Test func flatMapOverProducersEndsWithTheFirstFailureOfAnyRun() {
        let scheduler = TestScheduler()
        let pages = Producer<Int, WorkFailure>(values: [1, 2, 3])
        let details = pages.flatMap(.concat) { page in
            page == 2 ? Producer(failure: .attempt(page)) : Producer(value: "page \(page)")
        }
        record(details, on: scheduler).assertEvents([
            .value(.success("page 1")), .value(.failure(.attempt(2))), .completed,
        ])
        let outerFails = Producer<Int, WorkFailure>(failure: .offline).flatMap { _ in Producer(value: "never") }
        record(outerFails, on: scheduler).assertEvents([.value(.failure(.offline)), .completed])
    }

    @Test func flatMapLatestOverProducersStopsTheRunItSwitchesAwayFrom() {
        let scheduler = TestScheduler()
        let inner = ColdWork(scheduler, [(2, .value("slow")), (3, .completed)])
        let queries = ColdWork(scheduler, [(0, .value("h")), (1, .value("ho")), (5, .completed)])
        let results = queries.producer.flatMap(.latest) { query in inner.producer.map { "\(query): \($0)" } }
        let recorder = record(results, on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("ho: slow")), .completed])
        #expect(inner.starts.value == 2)
        #expect(inner.stops.value == 2)
    }

    // MARK: Types that read as written

    @Test func aCatchWhoseProducerCannotFailNeedsNoTypeWrittenOut() {
        let scheduler = TestScheduler()
        let recovered = Producer<Int, WorkFailure>(failure: .offline).catch { _ in .init(value: 0) }
        let typed: Producer<Int, Never> = recovered
        record(typed, on: scheduler).assertEvents([.value(.success(0)), .completed])
    }

    @Test func aProducerThatCannotFailTakesATimeoutThatRaises() {
        let scheduler = TestScheduler()
        let silent = Producer<Int, Never>.never.setFailureType(to: WorkFailure.self)
            .timeout(after: .seconds(3), raising: .timedOut, on: scheduler)
        let recorder = record(silent, on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.failure(.timedOut)), .completed])
        #expect(recorder.timedEvents.first?.time == .seconds(3))
    }
}
