import Signals
import SignalsTesting
import Testing

/// Sleeps written against the standard protocol, as production code is: they must accept
/// the test clock.
private func sleepOnAnyClock(_ clock: any Clock<Duration>, for duration: Duration) async throws {
    try await clock.sleep(for: duration)
}

private func sleepOnSomeClock(_ clock: some Clock<Duration>, for duration: Duration) async throws {
    try await Task.sleep(for: duration, clock: clock)
}

extension Duration {
    /// `count` minutes (the standard library stops at seconds).
    fileprivate static func minutes(_ count: Int) -> Duration { .seconds(count * 60) }
}

@Suite(.timeLimit(.minutes(1))) struct TestClockTests {
    // MARK: Tasks on the scheduler

    @Test func aTaskOnTheSchedulerRunsInsideAdvanceRightAfterTheActionThatStartedIt() async {
        let scheduler = TestScheduler()
        let log = Locked<[String]>([])
        let first = Task(executorPreference: scheduler) { log.append("task") }
        #expect(scheduler.hasPendingActions)
        #expect(log.value == [], "nothing runs until the scheduler advances")
        scheduler.advance()
        #expect(log.value == ["task"])
        await first.value

        scheduler.schedule(after: .seconds(1)) {
            log.append("a")
            Task(executorPreference: scheduler) { log.append("task from a") }
        }
        scheduler.schedule(after: .seconds(1)) { log.append("b") }
        scheduler.advance(by: .seconds(1))
        #expect(log.value == ["task", "a", "task from a", "b"])
        #expect(!scheduler.hasPendingActions)
    }

    // MARK: Sleeping in virtual time

    @Test func aTenMinuteSleepOnTheSchedulerEndsInAdvanceWithNoRealWaiting() async throws {
        // No stopwatch: that the sleeps ended inside `advance`, at the virtual times it
        // reached, shows that nothing waited for real time (which a loaded machine stretches).
        let scheduler = TestScheduler()
        let woke = Locked<[Duration]>([])
        let sleeper = Task(executorPreference: scheduler) {
            try await Task.sleep(for: .minutes(10), clock: scheduler.clock)
            woke.append(scheduler.now)
            try await sleepOnAnyClock(scheduler.clock, for: .minutes(10))
            woke.append(scheduler.now)
            try await sleepOnSomeClock(scheduler.clock, for: .minutes(10))
            woke.append(scheduler.now)
        }
        scheduler.advance(by: .minutes(30))
        #expect(woke.value == [.minutes(10), .minutes(20), .minutes(30)], "all done when advance returns")
        try await sleeper.value
    }

    @Test func aTenMinuteSleepInAPlainTaskEndsOnAdvanceOnceItIsWaiting() async throws {
        // No stopwatch: the sleeper is still asleep until `advance` reaches its deadline and
        // wakes at exactly that virtual time, so only the test clock ended its sleep.
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let sleeper = Task {
            try await clock.sleep(for: .minutes(10))
            return clock.now
        }
        try await clock.waitForSleepers(count: 1)
        scheduler.advance(by: .minutes(10) - .nanoseconds(1))
        #expect(clock.sleeperCount == 1, "not woken before its deadline")
        scheduler.advance(by: .nanoseconds(1))
        #expect(clock.sleeperCount == 0)
        #expect(try await sleeper.value.offset == .minutes(10))
        #expect(clock.now.offset == .minutes(10))
    }

    @Test func aSleepIsNotResumedBeforeItsTime() {
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let woke = Locked<[Duration]>([])
        Task(executorPreference: scheduler) {
            try await clock.sleep(until: clock.now.advanced(by: .minutes(10)))
            woke.append(scheduler.now)
        }
        scheduler.advance()
        #expect(clock.sleeperCount == 1)
        scheduler.advance(by: .minutes(10) - .nanoseconds(1))
        #expect(woke.value == [])
        #expect(clock.sleeperCount == 1)
        scheduler.advance(by: .nanoseconds(1))
        #expect(woke.value == [.minutes(10)])
        #expect(clock.sleeperCount == 0)
        #expect(!scheduler.hasPendingActions)
    }

    @Test func aSleepUntilAnInstantAlreadyReachedReturnsAtOnce() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let start = clock.now
        scheduler.advance(by: .seconds(5))
        // In the test's own task: a sleep that waited would never end, since nothing advances.
        try await clock.sleep(until: start)
        try await clock.sleep(until: clock.now)
        try await clock.sleep(for: .zero)
        try await clock.sleep(for: .seconds(-1))
        #expect(clock.now.offset == .seconds(5))
        #expect(clock.sleeperCount == 0)
        #expect(!scheduler.hasPendingActions)
    }

    // MARK: Cancellation

    @Test func cancellingASleepThrowsAndRemovesItsEntry() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let sleeper = Task { try await clock.sleep(for: .minutes(10)) }
        try await clock.waitForSleepers(count: 1)
        #expect(scheduler.hasPendingActions)
        sleeper.cancel()
        #expect(clock.sleeperCount == 0, "the entry is gone when cancel returns")
        #expect(!scheduler.hasPendingActions)
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        scheduler.advance(by: .minutes(10))
        #expect(clock.now.offset == .minutes(10))
    }

    @Test func aSleepInACancelledTaskThrowsWithoutWaiting() async {
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .minutes(10))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        #expect(!scheduler.hasPendingActions)
    }

    @Test func aCancelledSleepOnTheSchedulerEndsItsTaskOnTheNextAdvance() {
        let scheduler = TestScheduler()
        let outcome = Locked<String?>(nil)
        let sleeper = Task(executorPreference: scheduler) {
            do {
                try await scheduler.clock.sleep(for: .minutes(10))
                outcome.value = "woke"
            } catch {
                outcome.value = "\(type(of: error))"
            }
        }
        scheduler.advance()
        #expect(scheduler.clock.sleeperCount == 1)
        sleeper.cancel()
        #expect(scheduler.clock.sleeperCount == 0)
        #expect(outcome.value == nil, "the task goes on on its executor: the scheduler")
        scheduler.advance()
        #expect(outcome.value == "CancellationError")
        #expect(scheduler.now == .zero)
    }

    @Test func waitingForSleepersEndsWithTheSleepThatMakesTheCountAndCanBeCancelled() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let sleepers = (1...3).map { minutes in
            Task { try await clock.sleep(for: .minutes(minutes)) }
        }
        try await clock.waitForSleepers(count: 3)
        #expect(clock.sleeperCount == 3)
        try await clock.waitForSleepers(count: 2)

        // On the scheduler, so that `advance()` proves it is waiting before it is cancelled.
        let tooMany = Task(executorPreference: scheduler) { try await clock.waitForSleepers(count: 4) }
        scheduler.advance()
        tooMany.cancel()
        scheduler.advance()
        await #expect(throws: CancellationError.self) { try await tooMany.value }

        scheduler.advance(by: .minutes(3))
        for sleeper in sleepers {
            try await sleeper.value
        }
        #expect(clock.sleeperCount == 0)
    }

    // MARK: One timeline

    @Test func sleepsAndADebounceOnOneSchedulerInterleaveByDueTime() {
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let log = Locked<[String]>([])
        let (queries, query) = Signal<String>.pipe()
        let settled = queries.debounce(.milliseconds(300), on: scheduler)
        let observation = settled.observe { log.append("debounce \($0) at \(scheduler.now)") }
        defer { observation.dispose() }

        // Due at 300 ms, scheduled before the debounce's timer.
        Task(executorPreference: scheduler) {
            try await clock.sleep(for: .milliseconds(300))
            log.append("sleep 300 at \(scheduler.now)")
        }
        scheduler.advance()
        query.send("a")
        // Due at 300 ms, scheduled after it; then due at 400 ms.
        Task(executorPreference: scheduler) {
            try await clock.sleep(for: .milliseconds(300))
            log.append("late sleep 300 at \(scheduler.now)")
        }
        // Due at 200 ms, then again 100 ms later: 300 ms, scheduled last of the three.
        Task(executorPreference: scheduler) {
            try await clock.sleep(for: .milliseconds(200))
            log.append("sleep 200 at \(scheduler.now)")
            try await clock.sleep(for: .milliseconds(100))
            log.append("sleep 200+100 at \(scheduler.now)")
            try await clock.sleep(for: .milliseconds(100))
            log.append("sleep 200+100+100 at \(scheduler.now)")
        }
        scheduler.advance()
        #expect(clock.sleeperCount == 3)
        scheduler.advance(by: .milliseconds(400))
        #expect(
            log.value == [
                "sleep 200 at 0.2 seconds",
                "sleep 300 at 0.3 seconds",
                "debounce a at 0.3 seconds",
                "late sleep 300 at 0.3 seconds",
                "sleep 200+100 at 0.3 seconds",
                "sleep 200+100+100 at 0.4 seconds",
            ])
        #expect(!scheduler.hasPendingActions)
    }

    @Test func aTimerLoopOnTheSchedulerTicksOncePerIntervalInOneAdvance() {
        let scheduler = TestScheduler()
        let ticks = Locked<[Duration]>([])
        let timer = Task(executorPreference: scheduler) {
            while true {
                try await scheduler.clock.sleep(for: .seconds(1))
                ticks.append(scheduler.now)
            }
        }
        scheduler.advance(by: .milliseconds(5500))
        #expect(ticks.value == (1...5).map { .seconds($0) })
        timer.cancel()
        scheduler.advance()
        #expect(!scheduler.hasPendingActions)
    }

    @Test func manySleepersResumeInDeadlineOrderTiesInTheOrderTheySlept() {
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let woke = Locked<[(index: Int, time: Duration)]>([])
        let delays = (0..<200).map { _ in Duration.milliseconds(Int.random(in: 1...50)) }
        for (index, delay) in delays.enumerated() {
            Task(executorPreference: scheduler) {
                try await clock.sleep(for: delay)
                woke.append((index, scheduler.now))
            }
        }
        scheduler.advance()
        #expect(clock.sleeperCount == delays.count)
        scheduler.advance(by: .milliseconds(50))
        let expected = delays.indices.sorted { (delays[$0], $0) < (delays[$1], $1) }
        #expect(woke.value.map(\.index) == expected)
        #expect(woke.value.map(\.time) == expected.map { delays[$0] })
    }

    @Test func manySleepersStartedConcurrentlyEachEndWhenTheirTimeComes() async throws {
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let woken = Locked(0)
        let sleepers = (1...100).map { minutes in
            Task {
                try await clock.sleep(for: .minutes(minutes))
                woken.increment()
            }
        }
        try await clock.waitForSleepers(count: 100)
        scheduler.advance(by: .minutes(50))
        for sleeper in sleepers.prefix(50) {
            try await sleeper.value
        }
        #expect(woken.value == 50, "the others are still asleep")
        #expect(clock.sleeperCount == 50)
        scheduler.advance(by: .minutes(50))
        for sleeper in sleepers {
            try await sleeper.value
        }
        #expect(woken.value == 100)
    }
}
