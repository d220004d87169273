import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

/// `MainScheduler`, `Signal.observe(on:)` and `Property.observe(on:)` with it.
@Suite(.timeLimit(.minutes(1))) struct MainSchedulerTests {
    @Test @MainActor func anActionScheduledOnTheMainActorWithNothingQueuedRunsAtOnce() async {
        let scheduler = MainScheduler()
        let ran = Locked(false)
        scheduler.schedule {
            MainActor.assertIsolated()
            ran.value = true
        }
        #expect(ran.value)
    }

    @Test @MainActor func anActionScheduledOnTheMainActorRunsAfterActionsQueuedBeforeIt() async {
        let scheduler = MainScheduler()
        let order = Locked<[Int]>([])
        // This test holds the main actor while another queue schedules: those actions wait.
        DispatchQueue(label: "main-scheduler-tests.other").sync {
            for index in 1...5 {
                scheduler.schedule {
                    dispatchPrecondition(condition: .onQueue(.main))
                    order.append(index)
                }
            }
        }
        scheduler.schedule { order.append(6) }
        #expect(order.value.isEmpty)
        await mainQueueTurns(until: { order.value.count == 6 })
        #expect(order.value == Array(1...6))
    }

    @Test func aDelayedActionRunsOnTheMainActor() async {
        let scheduler = MainScheduler()
        let ran = Locked(false)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduler.schedule(after: .milliseconds(20)) {
                MainActor.assertIsolated()
                dispatchPrecondition(condition: .onQueue(.main))
                ran.value = true
                continuation.resume()
            }
            // Not run in line, even on the main actor: it waits for its delay.
            #expect(!ran.value)
        }
        #expect(ran.value)
    }

    @Test func aCancelledDelayedActionDoesNotRun() async {
        let scheduler = MainScheduler()
        let ran = Locked(false)
        let cancelled = scheduler.schedule(after: .milliseconds(10)) { ran.value = true }
        cancelled.dispose()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            scheduler.schedule(after: .milliseconds(30)) { continuation.resume() }
        }
        #expect(!ran.value)
    }

    @Test @MainActor func aSignalObservedOnTheMainSchedulerDeliversEverythingOnMainInOrder() async {
        let (signal, input) = Signal<Int>.pipe()
        let onMain: Signal<Int> = signal.observe(on: MainScheduler())
        let received = EventLog<String>()
        // Plain `@Sendable` observers: they run where `onMain` sends, which is the main actor.
        let values = onMain.observe { value in
            MainActor.assertIsolated()
            dispatchPrecondition(condition: .onQueue(.main))
            received.append("\(value)")
        }
        let completion = onMain.observeCompleted {
            dispatchPrecondition(condition: .onQueue(.main))
            received.append("completed")
        }
        await Task.detached {
            for value in 1...1_000 { input.send(value) }
            input.sendCompleted()
        }.value
        await received.wait(forCount: 1_001)
        #expect(received.events == (1...1_000).map(String.init) + ["completed"])
        values.dispose()
        completion.dispose()
    }

    /// Rx's habit, `observe(on: MainScheduler.instance)` then subscribe, with a closure
    /// that updates main-actor state: it compiles, and runs on the main actor in order.
    @Test @MainActor func observersOfASignalObservedOnTheMainSchedulerAreMainActorCode() async {
        final class Label { // not Sendable: only main-actor code may touch it
            var text = ""
            var shown: [String] = []
        }
        let label = Label()
        let (signal, input) = Signal<Int>.pipe()
        let done = EventLog<String>()
        let subscription = signal.observe(on: MainScheduler()).observe { value in
            label.text = "\(value)"
            label.shown.append(label.text)
            if value == 500 { done.append("done") }
        }
        let bound = signal.observe(on: MainScheduler()).bind(to: label) { label, value in
            if value == 1 { label.shown.append("bound") }
        }
        await Task.detached {
            for value in 1...500 { input.send(value) }
        }.value
        await done.wait(forCount: 1)
        #expect(label.shown.filter { $0 != "bound" } == (1...500).map(String.init))
        #expect(label.shown.contains("bound"))
        #expect(label.text == "500")
        subscription.dispose()
        bound.dispose()
    }

    @Test @MainActor func aPropertyObservedOnTheMainSchedulerChangesOnMainInOrder() async {
        let source = MutableProperty(0)
        let shown = source.observe(on: MainScheduler())
        #expect(shown.value == 0, "the current value is taken at once")
        let received = Locked<[Int]>([])
        let observation = shown.observe { value in
            dispatchPrecondition(condition: .onQueue(.main))
            received.append(value)
        }
        await Task.detached {
            for value in 1...500 { source.value = value }
        }.value
        await mainQueueTurns(until: { received.value.last == 500 })
        #expect(received.value == Array(0...500))
        #expect(shown.value == 500)
        source.value = 501
        #expect(shown.value == 501, "changed on the main actor with nothing queued: followed at once")
        #expect(received.value.last == 501)
        observation.dispose()
    }

    @Test func aFollowerPropertyNeverMissesAChangeMadeWhileItIsCreated() async {
        // Each round makes a follower while another thread changes the source; once the
        // changes are done, the follower must hold the source's last value.
        let source = MutableProperty(0)
        var stale = 0
        for round in 0..<500 {
            let follower = Locked<Property<Int>?>(nil)
            await onThreads(2) { thread in
                if thread == 0 {
                    for step in 1...20 { source.value = round * 100 + step }
                } else {
                    follower.value = source.observe(on: ImmediateScheduler())
                }
            }
            if follower.value?.value != source.value { stale += 1 }
        }
        #expect(stale == 0, "\(stale) followers missed a change")
    }

    @Test(.tags(.regression)) @MainActor func valuesQueuedForTheMainActorArriveWhenTheSignalCompletesRightAfterThem()
        async
    {
        for _ in 0..<500 {
            let (signal, input) = Signal<Int>.pipe()
            let seen = Locked<[Int]>([])
            signal.observeOnMainActor { seen.append($0) }
            await Task.detached {
                input.send(1)
                input.send(2)
                input.sendCompleted()
            }.value
            #expect(await mainQueueTurns(until: { seen.value == [1, 2] }))
        }
    }
}
