import Signals
import SignalsTesting
import Testing

/// The failures the producers in these tests end with.
enum WorkFailure: Error, Equatable {
    case offline
    case timedOut
    case attempt(Int)
}

/// A failure described by its text.
struct Described: Error, Equatable {
    let text: String
}

/// Cold work for tests: every run of its producer schedules the same events at their
/// offsets (in seconds) from the run's start, and the runs and stops are counted.
final class ColdWork: Sendable {
    enum Step: Sendable {
        case value(String)
        case failure(WorkFailure)
        case completed
    }

    let starts = Locked(0)
    let stops = Locked(0)
    private let scheduler: TestScheduler
    private let steps: @Sendable (Int) -> [(Int, Step)]

    /// Work whose run number `n` (from 1) sends `steps(n)`.
    init(_ scheduler: TestScheduler, steps: @escaping @Sendable (Int) -> [(Int, Step)]) {
        self.scheduler = scheduler
        self.steps = steps
    }

    convenience init(_ scheduler: TestScheduler, _ steps: [(Int, Step)]) {
        self.init(scheduler) { _ in steps }
    }

    var producer: Producer<String, WorkFailure> {
        Producer { [self] input in
            let run = starts.withLock { count in
                count += 1
                return count
            }
            let scheduled = steps(run).map { offset, step in
                scheduler.schedule(after: .seconds(offset)) {
                    switch step {
                    case .value(let value): input.send(value)
                    case .failure(let failure): input.send(failure: failure)
                    case .completed: input.sendCompleted()
                    }
                }
            }
            return AnyDisposable { [self] in
                stops.withLock { $0 += 1 }
                scheduled.forEach { $0.dispose() }
            }
        }
    }
}

/// Records one run of `producer` as results on `scheduler`'s timeline.
func record<Value: Sendable, Failure: Error>(
    _ producer: Producer<Value, Failure>, on scheduler: TestScheduler
) -> Recorder<Result<Value, Failure>> {
    producer.signal().record(on: scheduler)
}

@Suite struct ProducerTests {
    @Test func everyStartRunsTheWorkAgain() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .completed)])
        let first = record(work.producer, on: scheduler)
        scheduler.advance(by: .seconds(1))
        let second = record(work.producer, on: scheduler)
        scheduler.run()
        #expect(work.starts.value == 2)
        #expect(first.timedEvents.map(\.time) == [.seconds(1), .seconds(2)])
        #expect(second.timedEvents.map(\.time) == [.seconds(2), .seconds(3)])
        second.assertEvents([.value(.success("a")), .completed])
    }

    @Test func aRunEndsAtItsFailureAndDropsWhatFollows() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .failure(.offline)), (3, .value("late"))])
        let recorder = record(work.producer, on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("a")), .value(.failure(.offline)), .completed])
        #expect(work.stops.value == 1)
    }

    /// ReactiveSwift's `SignalProducer(signal)`: each run hears what the signal sends
    /// from its start on, and ends with it.
    @Test func aProducerOfASignalObservesItFromEachRunsStart() {
        let (signal, input) = Signal<Int>.pipe()
        let producer = Producer<Int, WorkFailure>(signal)
        let first = producer.signal().record()
        input.send(1)
        let second = producer.signal().record()
        input.send(2)
        second.stop()
        input.send(3)
        input.sendCompleted()
        first.assertEvents([.value(.success(1)), .value(.success(2)), .value(.success(3)), .completed])
        second.assertEvents([.value(.success(2))])
    }

    @Test func startDeliversValuesThenTheFailureOrTheCompletion() {
        let events = Locked<[String]>([])
        Producer<Int, WorkFailure>(value: 7).start(
            value: { value in events.append("value \(value)") },
            failed: { failure in events.append("failed \(failure)") },
            completed: { events.append("completed") })
        Producer<Int, WorkFailure>(failure: .offline).start(
            value: { value in events.append("value \(value)") },
            failed: { failure in events.append("failed \(failure)") },
            completed: { events.append("completed") })
        #expect(events.value == ["value 7", "completed", "failed offline"])
    }

    @Test func disposingARunStopsItsWorkAndDeliversNothingMore() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .value("b")), (3, .completed)])
        let values = Locked<[String]>([])
        let run = work.producer.start(value: { values.append($0) }, failed: { _ in })
        scheduler.advance(by: .seconds(1))
        run.dispose()
        scheduler.run()
        #expect(values.value == ["a"])
        #expect(work.stops.value == 1)
    }

    @Test func anAsyncProducerThrowsItsTypedFailure() async {
        let producer = Producer<Int, WorkFailure> { () async throws(WorkFailure) -> Int in
            throw .offline
        }
        let failure: WorkFailure? = await withCheckedContinuation { continuation in
            producer.start(value: { _ in }, failed: { continuation.resume(returning: $0) })
        }
        #expect(failure == .offline)
        let value = await withCheckedContinuation { continuation in
            Producer<Int, WorkFailure> { 42 }.start(value: { continuation.resume(returning: $0) }, failed: { _ in })
        }
        #expect(value == 42)
    }

    /// A closure that says what it throws keeps that type (Swift 6 infers `any Error` for a
    /// closure that does not say, even where `Failure` is given).
    @Test func theDeclaredFailureTypesTheClosure() async {
        @Sendable func page(_ number: Int) async throws(WorkFailure) -> String {
            if number > 1 { throw .attempt(number) }
            return "page \(number)"
        }
        let second = Producer { () async throws(WorkFailure) in try await page(2) }
        let failure: WorkFailure? = await withCheckedContinuation { continuation in
            second.start(value: { _ in }, failed: { continuation.resume(returning: $0) })
        }
        #expect(failure == .attempt(2))
    }

    @Test func disposingAnAsyncRunCancelsItsTask() async {
        let started = AsyncGate()
        let cancelled = AsyncGate()
        let delivered = Locked(0)
        let producer = Producer<Int, Never> {
            await withTaskCancellationHandler {
                started.open()
                await cancelled.wait()
                return 1
            } onCancel: {
                cancelled.open()
            }
        }
        let run = producer.start(value: { _ in delivered.withLock { $0 += 1 } })
        await started.wait()
        run.dispose()
        await cancelled.wait()
        #expect(delivered.value == 0)
    }

    @Test func mapAndMapErrorTransformEachRun() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .failure(.offline))])
        let recorder = record(
            work.producer.map { $0.uppercased() }.mapError { Described(text: "\($0)") }, on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("A")), .value(.failure(Described(text: "offline"))), .completed])
    }

    @Test func replaceErrorEndsWithTheFallback() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .failure(.offline))])
        let recorder = work.producer.replaceError(with: "fallback").signal().record(on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("a")), .value(.success("fallback")), .completed])
    }

    @Test func catchGoesOnWithTheHandlersProducer() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .failure(.offline)), (3, .value("late"))])
        let cache = ColdWork(scheduler, [(1, .value("cached")), (2, .completed)])
        let handled = Locked<[WorkFailure]>([])
        let recorder = record(
            work.producer.catch { failure in
                handled.append(failure)
                return cache.producer.mapError { $0 as any Error }
            }.mapError { $0 as! WorkFailure }, on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("a")), .value(.success("cached")), .completed])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(1), .seconds(3), .seconds(4)])
        #expect(handled.value == [.offline])
        #expect(work.stops.value == 1)
        #expect(cache.stops.value == 1)
    }

    @Test func catchEndsWithTheHandlersFailure() {
        let recorder = Producer<Int, WorkFailure>(failure: .offline)
            .catch { _ in Producer<Int, WorkFailure>(failure: .timedOut) }
            .signal().record()
        recorder.assertEvents([.value(.failure(.timedOut)), .completed])
    }

    /// RxSwift's `testRetryCount_Basic`: each attempt is a new run; the last failure ends it.
    @Test func retryRunsUpToCountMoreAttemptsThenFails() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler) { run in [(1, .value("a\(run)")), (2, .failure(.attempt(run)))] }
        let recorder = record(work.producer.retry(upTo: 2), on: scheduler)
        scheduler.run()
        recorder.assertEvents([
            .value(.success("a1")), .value(.success("a2")), .value(.success("a3")),
            .value(.failure(.attempt(3))), .completed,
        ])
        #expect(recorder.timedEvents.map(\.time) == [1, 3, 5, 6, 6].map { Duration.seconds($0) })
        #expect(work.starts.value == 3)
        #expect(work.stops.value == 3)
    }

    @Test func retryStopsAtTheFirstSuccess() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler) { run in
            run < 2 ? [(1, .failure(.offline))] : [(1, .value("ok")), (1, .completed)]
        }
        let recorder = record(work.producer.retry(upTo: 5), on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("ok")), .completed])
        #expect(work.starts.value == 2)
    }

    @Test func retryOfWorkThatFailsAtOnceDoesNotDeepenTheStack() {
        let attempts = Locked(0)
        let failing = Producer<Int, WorkFailure> { input in
            attempts.withLock { $0 += 1 }
            input.send(failure: .offline)
            return AnyDisposable {}
        }
        let recorder = failing.retry(upTo: 20_000).signal().record()
        recorder.assertEvents([.value(.failure(.offline)), .completed])
        #expect(attempts.value == 20_001)
    }

    @Test func retryAfterADelayWaitsOnTheSchedulerAndDeliversThere() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler) { run in
            run < 3 ? [(1, .failure(.offline))] : [(1, .value("ok")), (1, .completed)]
        }
        let recorder = record(work.producer.retry(upTo: 3, after: .seconds(10), on: scheduler), on: scheduler)
        scheduler.advance(by: .seconds(11))
        #expect(work.starts.value == 2)
        scheduler.run()
        recorder.assertEvents([.value(.success("ok")), .completed])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(23), .seconds(23)])
    }

    @Test func disposingDuringTheRetryPauseStartsNoMoreAttempts() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .failure(.offline))])
        let run = work.producer.retry(upTo: 3, after: .seconds(10), on: scheduler).start(
            value: { _ in }, failed: { _ in })
        scheduler.advance(by: .seconds(5))
        run.dispose()
        scheduler.run()
        #expect(work.starts.value == 1)
        #expect(!scheduler.hasPendingActions)
    }

    @Test func timeoutFailsSlowWorkAndStopsIt() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (20, .value("b")), (21, .completed)])
        let recorder = record(
            work.producer.timeout(after: .seconds(5), raising: .timedOut, on: scheduler), on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.success("a")), .value(.failure(.timedOut)), .completed])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(1), .seconds(5), .seconds(5)])
        #expect(work.stops.value == 1)
    }

    @Test func timeoutLetsQuickWorkEndAndCancelsItsTimer() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .completed)])
        let recorder = record(
            work.producer.timeout(after: .seconds(5), raising: .timedOut, on: scheduler), on: scheduler)
        scheduler.advance(by: .seconds(2))
        recorder.assertEvents([.value(.success("a")), .completed])
        #expect(!scheduler.hasPendingActions)
    }

    @Test func anIdleTimeoutLetsAStreamThatKeepsTalkingRunThenFailsItWhenItFallsSilent() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .value("b")), (3, .value("c")), (20, .completed)])
        let recorder = record(
            work.producer.timeout(whenIdleFor: .milliseconds(1_500), raising: .timedOut, on: scheduler),
            on: scheduler)
        scheduler.run()
        recorder.assertEvents([
            .value(.success("a")), .value(.success("b")), .value(.success("c")), .value(.failure(.timedOut)),
            .completed,
        ])
        // Each value restarted the wait: the failure comes 1.5 s after the last one.
        #expect(recorder.timedEvents.map(\.time).last == .milliseconds(4_500))
        #expect(work.stops.value == 1)
        #expect(!scheduler.hasPendingActions)
    }

    @Test func anIdleTimeoutCountsFromTheStartWhenNothingComes() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(3, .value("late"))])
        let recorder = record(
            work.producer.timeout(whenIdleFor: .seconds(1), raising: .timedOut, on: scheduler), on: scheduler)
        scheduler.run()
        recorder.assertEvents([.value(.failure(.timedOut)), .completed])
        #expect(recorder.timedEvents.map(\.time) == [.seconds(1), .seconds(1)])
    }

    @Test func anIdleTimeoutLetsWorkThatEndsInTimeEndAndLeavesNoTimer() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .value("a")), (2, .completed)])
        let recorder = record(
            work.producer.timeout(whenIdleFor: .seconds(5), raising: .timedOut, on: scheduler), on: scheduler)
        scheduler.advance(by: .seconds(2))
        recorder.assertEvents([.value(.success("a")), .completed])
        #expect(!scheduler.hasPendingActions)
    }

    @Test func timeoutDeliversEveryEventOnItsScheduler() {
        let scheduler = TestScheduler()
        let (values, _) = (Locked<[Int]>([]), ())
        Producer<Int, WorkFailure>(value: 1)
            .timeout(after: .seconds(5), raising: .timedOut, on: scheduler)
            .start(value: { values.append($0) }, failed: { _ in })
        #expect(values.value.isEmpty)
        scheduler.advance()
        #expect(values.value == [1])
    }

    @Test func disposingACatchRunStopsTheHandlersWork() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(1, .failure(.offline))])
        let fallback = ColdWork(scheduler, [(5, .value("late")), (6, .completed)])
        let values = Locked<[String]>([])
        let run = work.producer.catch { _ in fallback.producer }.start(value: { values.append($0) }, failed: { _ in })
        scheduler.advance(by: .seconds(2))
        #expect(fallback.starts.value == 1)
        run.dispose()
        scheduler.run()
        #expect(values.value.isEmpty)
        #expect(fallback.stops.value == 1)
    }

    @Test func disposingATimeoutRunStopsTheWorkAndTheTimer() {
        let scheduler = TestScheduler()
        let work = ColdWork(scheduler, [(20, .completed)])
        let run = work.producer.timeout(after: .seconds(5), raising: .timedOut, on: scheduler)
            .start(value: { _ in }, failed: { _ in Issue.record("a disposed run delivered its timeout") })
        scheduler.advance(by: .seconds(1))
        run.dispose()
        #expect(work.stops.value == 1)
        scheduler.run()
    }

    /// A value the work sends from inside the run's observer waits for the one being
    /// delivered (FIFO, as for a signal), and a retry's attempts keep that order.
    @Test func aValueSentFromInsideTheObserverIsDeliveredAfterTheCurrentOne() {
        let seen = Locked<[String]>([])
        let input = Locked<Producer<Int, WorkFailure>.Input?>(nil)
        let producer = Producer<Int, WorkFailure> { sending in
            input.value = sending
            sending.send(1)
            return AnyDisposable {}
        }.retry(upTo: 1)
        producer.start(
            value: { value in
                seen.append("start \(value)")
                if value == 1 { input.value?.send(2) }
                seen.append("end \(value)")
            }, failed: { _ in })
        #expect(seen.value == ["start 1", "end 1", "start 2", "end 2"])
    }

    /// Found by a review: the failure and the run's end were two steps, so what the failure's
    /// observer sent in between was delivered, a second failure too.
    @Test func whatIsSentAfterAFailureIsDropped() {
        let input = Locked<Producer<Int, WorkFailure>.Input?>(nil)
        let events = Locked<[String]>([])
        Producer<Int, WorkFailure> { sending in
            input.value = sending
            sending.send(failure: .offline)
            return AnyDisposable {}
        }.start(
            value: { events.append("value \($0)") },
            failed: { failure in
                events.append("failed \(failure)")
                input.value?.send(99)
                input.value?.send(failure: .timedOut)
            })
        #expect(events.value == ["failed offline"])
        let (values, send) = Signal<Int>.pipe()
        let results = values.flatMap(.merge) { _ in
            Producer<Int, WorkFailure> { sending in
                sending.send(failure: .offline)
                sending.send(7)
                sending.send(failure: .timedOut)
                return AnyDisposable {}
            }
        }.record()
        send.send(1)
        results.assertValues([.failure(.offline)])
    }

    /// Found by a review: attempts queued behind the one whose observer disposed the run
    /// still started, after `dispose()` had returned.
    @Test func disposingARetryRunFromItsObserverStartsNoMoreAttempts() {
        let attempts = Locked(0)
        let (kicks, kick) = Signal<Void>.pipe()
        let base = Producer<Int, WorkFailure> { input in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            if attempt == 1 {
                return kicks.observe { input.send(failure: .offline) }
            }
            input.send(attempt)
            input.send(failure: .offline)
            return AnyDisposable {}
        }
        let run = Locked<Disposable?>(nil)
        let attemptsAtDisposal = Locked(0)
        run.value = base.retry(upTo: 1000).start(
            value: { _ in
                run.value?.dispose()
                attemptsAtDisposal.value = attempts.value
            }, failed: { _ in })
        kick.send()
        // The third attempt started before the second's value reached the observer (the
        // failure behind it was handled first); none started after the disposal.
        #expect(attemptsAtDisposal.value == 3)
        #expect(attempts.value == 3)
    }

    @Test func onAnImmediateSchedulerWorkThatEndsAtOncePassesTheTimeout() {
        let events = Locked<[String]>([])
        Producer<Int, WorkFailure>(value: 1)
            .timeout(after: .seconds(3600), raising: .timedOut, on: ImmediateScheduler())
            .start(value: { events.append("value \($0)") }, failed: { events.append("failed \($0)") })
        #expect(events.value == ["value 1"])
        let started = Locked(false)
        Producer<Int, WorkFailure> { input in
            started.value = true
            return AnyDisposable { withExtendedLifetime(input) {} }
        }
        .timeout(after: .seconds(3600), raising: .timedOut, on: ImmediateScheduler())
        .start(value: { _ in }, failed: { events.append("failed \($0), started: \(started.value)") })
        #expect(events.value == ["value 1", "failed timedOut, started: true"])
    }

    @Test func successesAndFailuresSplitResults() {
        let (results, send) = Signal<Result<Int?, WorkFailure>>.pipe()
        let successes = results.successes().record()
        let failures = results.failures().record()
        send.send(.success(1))
        send.send(.failure(.offline))
        send.send(.success(nil))
        send.sendCompleted()
        successes.assertEvents([.value(1), .value(nil), .completed])
        failures.assertEvents([.value(.offline), .completed])
    }
}
