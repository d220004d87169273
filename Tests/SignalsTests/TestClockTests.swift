import Signals
import SignalsTesting
import Testing

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
}
