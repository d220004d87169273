import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

@Suite struct SchedulerTests {
    // MARK: TestScheduler

    @Test func nothingRunsUntilTimeIsAdvanced() {
        let scheduler = TestScheduler()
        let ran = Locked(false)
        scheduler.schedule { ran.value = true }
        #expect(!ran.value)
        #expect(scheduler.hasPendingActions)
        scheduler.advance()
        #expect(ran.value)
        #expect(!scheduler.hasPendingActions)
    }

    @Test func actionsRunInTimeOrder() {
        let scheduler = TestScheduler()
        let order = Locked<[String]>([])
        scheduler.schedule(after: .seconds(3)) { order.append("3s") }
        scheduler.schedule(after: .seconds(1)) { order.append("1s") }
        scheduler.schedule(after: .seconds(2)) { order.append("2s") }
        scheduler.schedule { order.append("now") }
        scheduler.run()
        #expect(order.value == ["now", "1s", "2s", "3s"])
    }

    @Test func tiesRunInSchedulingOrder() {
        let scheduler = TestScheduler()
        let order = Locked<[Int]>([])
        for index in 0..<10 {
            scheduler.schedule(after: .seconds(1)) { order.append(index) }
        }
        scheduler.advance(by: .seconds(1))
        #expect(order.value == Array(0..<10))
    }

    @Test func advanceRunsActionsDueAtOrBeforeTheNewTimeOnly() {
        let scheduler = TestScheduler()
        let order = Locked<[Int]>([])
        scheduler.schedule(after: .seconds(1)) { order.append(1) }
        scheduler.schedule(after: .seconds(2)) { order.append(2) }
        scheduler.schedule(after: .seconds(3)) { order.append(3) }
        scheduler.advance(by: .milliseconds(1999))
        #expect(order.value == [1])
        scheduler.advance(by: .milliseconds(1))
        #expect(order.value == [1, 2], "an action due exactly at the new time runs")
        #expect(scheduler.now == .seconds(2))
        scheduler.advance(by: .seconds(10))
        #expect(order.value == [1, 2, 3])
    }

    @Test func actionsScheduledDuringAdvanceThatAreDueRunToo() {
        let scheduler = TestScheduler()
        let log = Locked<[(String, Duration)]>([])
        scheduler.schedule(after: .seconds(1)) {
            log.append(("a", scheduler.now))
            scheduler.schedule(after: .seconds(1)) { log.append(("a+1", scheduler.now)) }
            scheduler.schedule(after: .seconds(10)) { log.append(("a+10", scheduler.now)) }
        }
        scheduler.schedule(after: .seconds(3)) { log.append(("b", scheduler.now)) }
        scheduler.advance(by: .seconds(5))
        #expect(log.value.map(\.0) == ["a", "a+1", "b"])
        #expect(log.value.map(\.1) == [.seconds(1), .seconds(2), .seconds(3)])
        #expect(scheduler.hasPendingActions)
        scheduler.advance(by: .seconds(6))
        #expect(log.value.map(\.0) == ["a", "a+1", "b", "a+10"])
        #expect(log.value.last?.1 == .seconds(11))
    }

    @Test func zeroDelayActionScheduledDuringAdvanceRunsAfterOthersDueAtSameTime() {
        let scheduler = TestScheduler()
        let order = Locked<[String]>([])
        scheduler.schedule(after: .seconds(1)) {
            order.append("a")
            scheduler.schedule { order.append("c (from a)") }
        }
        scheduler.schedule(after: .seconds(1)) { order.append("b") }
        scheduler.advance(by: .seconds(1))
        #expect(order.value == ["a", "b", "c (from a)"])
    }

    @Test func cancelViaReturnedDisposable() {
        let scheduler = TestScheduler()
        let order = Locked<[Int]>([])
        let first = scheduler.schedule(after: .seconds(1)) { order.append(1) }
        let second = scheduler.schedule(after: .seconds(2)) { order.append(2) }
        #expect(!first.isDisposed)
        second.dispose()
        #expect(second.isDisposed)
        scheduler.run()
        #expect(order.value == [1])
        #expect(first.isDisposed, "a run action counts as ended")
        first.dispose() // idempotent after running
        #expect(order.value == [1])
    }

    @Test func cancellingOnlyActionLeavesNothingPending() {
        let scheduler = TestScheduler()
        let task = scheduler.schedule(after: .seconds(1)) { Issue.record("cancelled action ran") }
        #expect(scheduler.hasPendingActions)
        task.dispose()
        #expect(!scheduler.hasPendingActions)
        scheduler.advance(by: .seconds(2))
    }

    @Test func actionCanCancelALaterAction() {
        let scheduler = TestScheduler()
        let ran = Locked<[String]>([])
        let later = Locked<Disposable?>(nil)
        scheduler.schedule(after: .seconds(1)) {
            ran.append("canceller")
            later.value?.dispose()
        }
        later.value = scheduler.schedule(after: .seconds(1)) { ran.append("later") }
        scheduler.run()
        #expect(ran.value == ["canceller"])
    }

    @Test func nowMoves() {
        let scheduler = TestScheduler()
        #expect(scheduler.now == .zero)
        scheduler.advance(by: .seconds(2))
        #expect(scheduler.now == .seconds(2), "advance moves the clock even with nothing scheduled")
        scheduler.advance(to: .seconds(5))
        #expect(scheduler.now == .seconds(5))
        scheduler.advance(to: .seconds(1))
        #expect(scheduler.now == .seconds(5), "advance(to:) never moves backwards")
        scheduler.advance(by: .seconds(-3))
        #expect(scheduler.now == .seconds(5), "negative intervals are ignored")
        scheduler.advance(by: .milliseconds(250))
        #expect(scheduler.now == .milliseconds(5250))
    }

    @Test func runMovesClockToLastAction() {
        let scheduler = TestScheduler()
        let seen = Locked<[Duration]>([])
        scheduler.schedule(after: .seconds(4)) { seen.append(scheduler.now) }
        scheduler.schedule(after: .seconds(7)) { seen.append(scheduler.now) }
        scheduler.run()
        #expect(seen.value == [.seconds(4), .seconds(7)])
        #expect(scheduler.now == .seconds(7))
        scheduler.run()
        #expect(scheduler.now == .seconds(7))
    }

    @Test func delaysAreRelativeToCurrentTime() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(10))
        let firedAt = Locked<Duration?>(nil)
        scheduler.schedule(after: .seconds(2)) { firedAt.value = scheduler.now }
        scheduler.advance(by: .seconds(1))
        #expect(firedAt.value == nil)
        scheduler.advance(by: .seconds(1))
        #expect(firedAt.value == .seconds(12))
    }

    @Test func negativeDelayRunsAtCurrentTime() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(3))
        let firedAt = Locked<Duration?>(nil)
        scheduler.schedule(after: .seconds(-5)) { firedAt.value = scheduler.now }
        scheduler.advance()
        #expect(firedAt.value == .seconds(3))
    }

    @Test func advanceToRunsDueActions() {
        let scheduler = TestScheduler()
        let ran = Locked<[Int]>([])
        scheduler.schedule(after: .seconds(1)) { ran.append(1) }
        scheduler.schedule(after: .seconds(4)) { ran.append(4) }
        scheduler.advance(to: .seconds(3))
        #expect(ran.value == [1])
        #expect(scheduler.now == .seconds(3))
        scheduler.advance(to: .seconds(4))
        #expect(ran.value == [1, 4])
    }

    // MARK: ImmediateScheduler

    @Test func immediateSchedulerRunsAtOnce() {
        let scheduler = ImmediateScheduler()
        let order = Locked<[String]>([])
        let first = scheduler.schedule { order.append("now") }
        #expect(order.value == ["now"])
        let second = scheduler.schedule(after: .seconds(100)) { order.append("delayed") }
        #expect(order.value == ["now", "delayed"], "delays are ignored")
        #expect(first.isDisposed)
        #expect(second.isDisposed)
    }

    @Test func immediateSchedulerRunsOnCallingThread() {
        let scheduler = ImmediateScheduler()
        let caller = pthread_self()
        let sameThread = Locked(false)
        scheduler.schedule { sameThread.value = pthread_equal(pthread_self(), caller) != 0 }
        #expect(sameThread.value)
    }

    @Test func immediateSchedulerClockMovesForward() {
        let scheduler = ImmediateScheduler()
        let before = scheduler.now
        #expect(before >= .zero)
        Thread.sleep(forTimeInterval: 0.002)
        #expect(scheduler.now > before)
    }

    // MARK: QueueScheduler

    @Test func queueSchedulerRunsActionsInOrderOnItsQueue() {
        let queue = DispatchQueue(label: "scheduler-tests.queue")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let scheduler = QueueScheduler(queue: queue)
        let order = Locked<[Int]>([])
        let onQueue = Locked(true)
        let done = DispatchSemaphore(value: 0)
        for index in 0..<20 {
            scheduler.schedule {
                order.append(index)
                onQueue.withLock { $0 = $0 && DispatchQueue.getSpecific(key: key) == 1 }
                if index == 19 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(order.value == Array(0..<20))
        #expect(onQueue.value)
    }

    @Test func queueSchedulerDelayedActionCanBeCancelled() {
        let scheduler = QueueScheduler(label: "scheduler-tests.cancel")
        let ran = Counter()
        let done = DispatchSemaphore(value: 0)
        let cancelled = scheduler.schedule(after: .milliseconds(20)) { ran.increment() }
        scheduler.schedule(after: .milliseconds(40)) { done.signal() }
        cancelled.dispose()
        #expect(cancelled.isDisposed)
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(ran.value == 0)
    }

    @Test func queueSchedulerWaitsForDelay() {
        let scheduler = QueueScheduler(label: "scheduler-tests.delay")
        let done = DispatchSemaphore(value: 0)
        let scheduledAt = scheduler.now
        let firedAt = Locked<Duration>(.zero)
        scheduler.schedule(after: .milliseconds(30)) {
            firedAt.value = scheduler.now
            done.signal()
        }
        #expect(done.wait(timeout: .now() + .seconds(30)) == .success)
        // The scheduler's own clock says the delay passed (it cannot fire early); the
        // test times nothing itself.
        #expect(firedAt.value - scheduledAt >= .milliseconds(30))
    }

    @Test(.tags(.regression)) func aFollowerOnASchedulerAndAZipKeepFollowingOnceTheirPropertyIsLetGo() {
        let source = MutableProperty(0)
        let other = MutableProperty("a")
        let followed = Locked<[Int]>([])
        let zipped = Locked<[String]>([])
        let followers = (
            source.observe(on: ImmediateScheduler()).observe { followed.append($0) },
            Property.zip(source, other).observe { zipped.append("\($0)\($1)") }
        )
        source.value = 1
        other.value = "b"
        #expect(followed.value == [0, 1])
        #expect(zipped.value == ["0a", "1b"])
        followers.0.dispose()
        followers.1.dispose()
    }
}
