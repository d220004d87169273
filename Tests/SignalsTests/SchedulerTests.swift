import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

@Suite struct SchedulerTests {
    // MARK: TestScheduler

    @Test func nothingRunsUntilTimeIsAdvanced() {
        let scheduler = TestScheduler()
        var ran = false
        scheduler.schedule { ran = true }
        #expect(!ran)
        #expect(scheduler.hasPendingActions)
        scheduler.advance()
        #expect(ran)
        #expect(!scheduler.hasPendingActions)
    }

    @Test func actionsRunInTimeOrder() {
        let scheduler = TestScheduler()
        var order: [String] = []
        scheduler.schedule(after: .seconds(3)) { order.append("3s") }
        scheduler.schedule(after: .seconds(1)) { order.append("1s") }
        scheduler.schedule(after: .seconds(2)) { order.append("2s") }
        scheduler.schedule { order.append("now") }
        scheduler.run()
        #expect(order == ["now", "1s", "2s", "3s"])
    }

    @Test func tiesRunInSchedulingOrder() {
        let scheduler = TestScheduler()
        var order: [Int] = []
        for index in 0..<10 {
            scheduler.schedule(after: .seconds(1)) { order.append(index) }
        }
        scheduler.advance(by: .seconds(1))
        #expect(order == Array(0..<10))
    }

    @Test func advanceRunsActionsDueAtOrBeforeTheNewTimeOnly() {
        let scheduler = TestScheduler()
        var order: [Int] = []
        scheduler.schedule(after: .seconds(1)) { order.append(1) }
        scheduler.schedule(after: .seconds(2)) { order.append(2) }
        scheduler.schedule(after: .seconds(3)) { order.append(3) }
        scheduler.advance(by: .milliseconds(1999))
        #expect(order == [1])
        scheduler.advance(by: .milliseconds(1))
        #expect(order == [1, 2], "an action due exactly at the new time runs")
        #expect(scheduler.now == .seconds(2))
        scheduler.advance(by: .seconds(10))
        #expect(order == [1, 2, 3])
    }

    @Test func actionsScheduledDuringAdvanceThatAreDueRunToo() {
        let scheduler = TestScheduler()
        var log: [(String, Duration)] = []
        scheduler.schedule(after: .seconds(1)) {
            log.append(("a", scheduler.now))
            scheduler.schedule(after: .seconds(1)) { log.append(("a+1", scheduler.now)) }
            scheduler.schedule(after: .seconds(10)) { log.append(("a+10", scheduler.now)) }
        }
        scheduler.schedule(after: .seconds(3)) { log.append(("b", scheduler.now)) }
        scheduler.advance(by: .seconds(5))
        #expect(log.map(\.0) == ["a", "a+1", "b"])
        #expect(log.map(\.1) == [.seconds(1), .seconds(2), .seconds(3)])
        #expect(scheduler.hasPendingActions)
        scheduler.advance(by: .seconds(6))
        #expect(log.map(\.0) == ["a", "a+1", "b", "a+10"])
        #expect(log.last?.1 == .seconds(11))
    }

    @Test func zeroDelayActionScheduledDuringAdvanceRunsAfterOthersDueAtSameTime() {
        let scheduler = TestScheduler()
        var order: [String] = []
        scheduler.schedule(after: .seconds(1)) {
            order.append("a")
            scheduler.schedule { order.append("c (from a)") }
        }
        scheduler.schedule(after: .seconds(1)) { order.append("b") }
        scheduler.advance(by: .seconds(1))
        #expect(order == ["a", "b", "c (from a)"])
    }

    @Test func cancelViaReturnedDisposable() {
        let scheduler = TestScheduler()
        var order: [Int] = []
        let first = scheduler.schedule(after: .seconds(1)) { order.append(1) }
        let second = scheduler.schedule(after: .seconds(2)) { order.append(2) }
        #expect(!first.isDisposed)
        second.dispose()
        #expect(second.isDisposed)
        scheduler.run()
        #expect(order == [1])
        #expect(first.isDisposed, "a run action counts as ended")
        first.dispose()   // idempotent after running
        #expect(order == [1])
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
        var ran: [String] = []
        var later: Disposable?
        scheduler.schedule(after: .seconds(1)) {
            ran.append("canceller")
            later?.dispose()
        }
        later = scheduler.schedule(after: .seconds(1)) { ran.append("later") }
        scheduler.run()
        #expect(ran == ["canceller"])
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
        var seen: [Duration] = []
        scheduler.schedule(after: .seconds(4)) { seen.append(scheduler.now) }
        scheduler.schedule(after: .seconds(7)) { seen.append(scheduler.now) }
        scheduler.run()
        #expect(seen == [.seconds(4), .seconds(7)])
        #expect(scheduler.now == .seconds(7))
        scheduler.run()
        #expect(scheduler.now == .seconds(7))
    }

    @Test func delaysAreRelativeToCurrentTime() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(10))
        var firedAt: Duration?
        scheduler.schedule(after: .seconds(2)) { firedAt = scheduler.now }
        scheduler.advance(by: .seconds(1))
        #expect(firedAt == nil)
        scheduler.advance(by: .seconds(1))
        #expect(firedAt == .seconds(12))
    }

    @Test func negativeDelayRunsAtCurrentTime() {
        let scheduler = TestScheduler()
        scheduler.advance(by: .seconds(3))
        var firedAt: Duration?
        scheduler.schedule(after: .seconds(-5)) { firedAt = scheduler.now }
        scheduler.advance()
        #expect(firedAt == .seconds(3))
    }

    @Test func advanceToRunsDueActions() {
        let scheduler = TestScheduler()
        var ran: [Int] = []
        scheduler.schedule(after: .seconds(1)) { ran.append(1) }
        scheduler.schedule(after: .seconds(4)) { ran.append(4) }
        scheduler.advance(to: .seconds(3))
        #expect(ran == [1])
        #expect(scheduler.now == .seconds(3))
        scheduler.advance(to: .seconds(4))
        #expect(ran == [1, 4])
    }

    // MARK: ImmediateScheduler

    @Test func immediateSchedulerRunsAtOnce() {
        let scheduler = ImmediateScheduler()
        var order: [String] = []
        let first = scheduler.schedule { order.append("now") }
        #expect(order == ["now"])
        let second = scheduler.schedule(after: .seconds(100)) { order.append("delayed") }
        #expect(order == ["now", "delayed"], "delays are ignored")
        #expect(first.isDisposed)
        #expect(second.isDisposed)
    }

    @Test func immediateSchedulerRunsOnCallingThread() {
        let scheduler = ImmediateScheduler()
        let caller = Thread.current
        var sameThread = false
        scheduler.schedule { sameThread = Thread.current == caller }
        #expect(sameThread)
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
        let lock = NSLock()
        var order: [Int] = []
        var onQueue = true
        let done = DispatchSemaphore(value: 0)
        for index in 0..<20 {
            scheduler.schedule {
                lock.lock()
                order.append(index)
                onQueue = onQueue && DispatchQueue.getSpecific(key: key) == 1
                lock.unlock()
                if index == 19 { done.signal() }
            }
        }
        #expect(done.wait(timeout: .now() + .milliseconds(900)) == .success)
        lock.lock()
        #expect(order == Array(0..<20))
        #expect(onQueue)
        lock.unlock()
    }

    @Test func queueSchedulerDelayedActionCanBeCancelled() {
        let scheduler = QueueScheduler(label: "scheduler-tests.cancel")
        let ran = Counter()
        let done = DispatchSemaphore(value: 0)
        let cancelled = scheduler.schedule(after: .milliseconds(20)) { ran.increment() }
        scheduler.schedule(after: .milliseconds(40)) { done.signal() }
        cancelled.dispose()
        #expect(cancelled.isDisposed)
        #expect(done.wait(timeout: .now() + .milliseconds(900)) == .success)
        #expect(ran.value == 0)
    }

    @Test func queueSchedulerWaitsForDelay() {
        let scheduler = QueueScheduler(label: "scheduler-tests.delay")
        let done = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        let scheduledAt = scheduler.now
        let lock = NSLock()
        var firedAt: Duration = .zero
        scheduler.schedule(after: .milliseconds(30)) {
            lock.lock(); firedAt = scheduler.now; lock.unlock()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + .milliseconds(900)) == .success)
        #expect(ContinuousClock.now - start >= .milliseconds(25))
        lock.lock()
        #expect(firedAt - scheduledAt >= .milliseconds(25))
        lock.unlock()
    }
}
