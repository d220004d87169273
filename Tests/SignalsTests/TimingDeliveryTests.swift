import Dispatch
import Signals
import SignalsTesting
import Testing

/// `throttle` and `debounce` deliver every event (a first value, a trailing value, a value
/// waiting at completion, the completion) from an action on their scheduler, whatever
/// thread the source sends on.
@Suite(.timeLimit(.minutes(1))) struct TimingDeliveryTests {
    /// Records each event of `signal` with whether it ran on `marked`'s queue.
    private func record(_ signal: Signal<Int>, on marked: MarkedQueue) -> (EventLog<String>, Disposable, Disposable) {
        let log = EventLog<String>()
        let place: @Sendable () -> String = { marked.isCurrent ? "on the scheduler" : "elsewhere" }
        let values = signal.observe { log.append("\($0) \(place())") }
        let completion = signal.observeCompleted { log.append("completed \(place())") }
        return (log, values, completion)
    }

    @Test func throttleDeliversTheFirstAndTheTrailingValueAndTheCompletionOnItsScheduler() async {
        let marked = MarkedQueue(label: "timing-delivery.throttle")
        let (signal, input) = Signal<Int>.pipe()
        let throttled = signal.throttle(.milliseconds(50), on: QueueScheduler(queue: marked.queue))
        let (log, values, completion) = record(throttled, on: marked)
        // Hold the scheduler while another thread sends, so no timer can fire in between.
        let release = marked.hold()
        await Task.detached {
            input.send(1) // leading value
            input.send(2)
            input.send(3) // trailing value, emitted when the window ends
        }.value
        release.signal()
        await log.wait(forCount: 2)
        await Task.detached { input.sendCompleted() }.value
        await log.wait(forCount: 3)
        #expect(log.events == ["1 on the scheduler", "3 on the scheduler", "completed on the scheduler"])
        values.dispose()
        completion.dispose()
    }

    @Test func throttleDeliversAValueWaitingAtCompletionOnItsScheduler() async {
        let marked = MarkedQueue(label: "timing-delivery.throttle-completion")
        let (signal, input) = Signal<Int>.pipe()
        let throttled = signal.throttle(.seconds(60), on: QueueScheduler(queue: marked.queue))
        let (log, values, completion) = record(throttled, on: marked)
        let release = marked.hold()
        await Task.detached {
            input.send(1)
            input.send(2)
            input.sendCompleted()
        }.value
        release.signal()
        await log.wait(forCount: 3)
        #expect(log.events == ["1 on the scheduler", "2 on the scheduler", "completed on the scheduler"])
        values.dispose()
        completion.dispose()
    }

    @Test func debounceDeliversTheTrailingValueTheValueWaitingAtCompletionAndTheCompletionOnItsScheduler() async {
        let marked = MarkedQueue(label: "timing-delivery.debounce")
        let (signal, input) = Signal<Int>.pipe()
        let debounced = signal.debounce(.milliseconds(50), on: QueueScheduler(queue: marked.queue))
        let (log, values, completion) = record(debounced, on: marked)
        let release = marked.hold()
        await Task.detached {
            input.send(1)
            input.send(2) // restarts the timer: only 2 is emitted
        }.value
        release.signal()
        await log.wait(forCount: 1)
        await Task.detached {
            input.send(3) // waiting when the source completes
            input.sendCompleted()
        }.value
        await log.wait(forCount: 3)
        #expect(log.events == ["2 on the scheduler", "3 on the scheduler", "completed on the scheduler"])
        values.dispose()
        completion.dispose()
    }

    /// The scheduler runs each action on its queue while the thread that scheduled it waits,
    /// that is, while that thread is still inside the operator: the operator must not hand
    /// the delivery back to it.
    @Test func timingOperatorsDeliverOnTheSchedulerEvenWhileTheSourceThreadIsInsideThem() {
        let marked = MarkedQueue(label: "timing-delivery.waiting")
        let scheduler = WaitingQueueScheduler(marked)
        let (signal, input) = Signal<Int>.pipe()
        let (throttleLog, throttleValues, throttleCompletion) =
            record(signal.throttle(.seconds(60), on: scheduler), on: marked)
        let (debounceLog, debounceValues, debounceCompletion) =
            record(signal.debounce(.seconds(60), on: scheduler), on: marked)
        input.send(1)
        input.send(2)
        input.sendCompleted()
        #expect(throttleLog.events == ["1 on the scheduler", "2 on the scheduler", "completed on the scheduler"])
        #expect(debounceLog.events == ["2 on the scheduler", "completed on the scheduler"])
        for disposable in [throttleValues, throttleCompletion, debounceValues, debounceCompletion] {
            disposable.dispose()
        }
    }

    @Test @MainActor func throttleOnTheMainSchedulerDeliversOnTheMainActor() async {
        let (signal, input) = Signal<Int>.pipe()
        let throttled = signal.throttle(.seconds(60), on: MainScheduler())
        var received: [String] = []
        let values = throttled.observeOnMainActor { received.append("\($0)") }
        let completed = Locked<[Bool]>([])
        let completion = throttled.observeCompleted { completed.append(MainActorCheck.isOnMainQueue) }
        let onMain = Locked<[Bool]>([])
        let check = throttled.observe { _ in onMain.append(MainActorCheck.isOnMainQueue) }
        await Task.detached {
            input.send(1)
            input.send(2)
            input.sendCompleted()
        }.value
        await mainQueueTurns(until: { received.count == 2 })
        #expect(received == ["1", "2"])
        #expect(onMain.value == [true, true])
        #expect(completed.value == [true], "the completion follows the waiting value, on the main actor")
        values.dispose()
        completion.dispose()
        check.dispose()
    }
}

/// Whether the caller runs on the main queue (the main actor's executor).
enum MainActorCheck {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

/// Runs each action on `marked`'s queue, making the caller wait until it has run.
final class WaitingQueueScheduler: Scheduler {
    private let marked: MarkedQueue
    private let delayed: QueueScheduler

    init(_ marked: MarkedQueue) {
        self.marked = marked
        delayed = QueueScheduler(queue: marked.queue)
    }

    var now: Duration { delayed.now }

    func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        marked.queue.sync(execute: action)
        let done = AnyDisposable {}
        done.dispose()
        return done
    }

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        delayed.schedule(after: delay, action)
    }
}
