import Dispatch
import Signals
import SignalsTesting
import Testing

/// A view that lives on the main actor, as UI views do.
@MainActor final class MainActorView {
    var values: [Int] = []
    var text = ""
    var updates = 0
}

/// `bind(to:)` and `observeOnMainActor`: the closure runs on the main actor, gets every
/// value in order, synchronously when the value is sent on the main actor with nothing
/// queued, and queued (in order) otherwise. See "Isolation" in Sources/Signals/Signals.docc/Contract.md.
@Suite(.timeLimit(.minutes(1))) struct IsolationTests {
    // MARK: observe

    @Test func anObserveClosureRunsOnTheThreadThatSends() {
        let marked = MarkedQueue(label: "isolation-tests.sending")
        let (signal, input) = Signal<Int>.pipe()
        let property = MutableProperty(0)
        let onSender = Locked<[Bool]>([])
        let signalObservation = signal.observe { _ in onSender.append(marked.isCurrent) }
        let propertyObservation = property.signal.observe { _ in onSender.append(marked.isCurrent) }
        marked.queue.sync {
            input.send(1)
            property.value = 1
        }
        input.send(2)
        #expect(onSender.value == [true, true, false])
        signalObservation.dispose()
        propertyObservation.dispose()
    }

    // MARK: bind(to:)

    @Test @MainActor func aBindingGetsEveryChangeMadeInADetachedTaskOnTheMainActorInOrder() async {
        let property = MutableProperty(0)
        let view = MainActorView()
        let binding = property.bind(to: view) { view, value in
            MainActor.assertIsolated()
            dispatchPrecondition(condition: .onQueue(.main))
            view.values.append(value)
        }
        #expect(view.values == [0], "the current value arrives before bind returns")
        await Task.detached {
            for value in 1...2_000 { property.value = value }
        }.value
        await mainQueueTurns(until: { view.values.count == 2_001 })
        #expect(view.values == Array(0...2_000))
        binding.dispose()
    }

    @Test @MainActor func aBindingGetsEveryChangeMadeOnSeveralThreadsAndTheMainActorInTheOrderTheyWereDelivered() async
    {
        let property = MutableProperty(-1)
        let view = MainActorView()
        // The order in which the property delivered its changes, seen on the sending threads.
        let delivered = Locked<[Int]>([])
        let sendingSide = property.observe { delivered.append($0) }
        let binding = property.bind(to: view) { view, value in
            MainActor.assertIsolated()
            dispatchPrecondition(condition: .onQueue(.main))
            view.values.append(value)
        }
        let threads = 4
        let perThread = 2_500
        let onMain = 200
        // Background threads send while the main actor sends too, letting queued
        // deliveries run between its own (some of which are then delivered inline).
        async let background: Void = onThreads(threads) { thread in
            for index in 0..<perThread { property.value = thread * 10_000 + index }
        }
        for index in 0..<onMain {
            property.value = 100_000 + index
            await Task.yield()
        }
        await background
        let total = 1 + threads * perThread + onMain
        await mainQueueTurns(until: { view.values.count == total })
        // None dropped, none repeated, and the same order as on the sending side.
        #expect(view.values.count == total)
        #expect(view.values == delivered.value)
        for thread in 0...threads {
            let base = thread == threads ? 100_000 : thread * 10_000
            let count = thread == threads ? onMain : perThread
            let own = view.values.filter { $0 >= base && $0 < base + 10_000 }
            #expect(own == (0..<count).map { base + $0 }, "sender \(thread) kept its order")
        }
        sendingSide.dispose()
        binding.dispose()
    }

    @Test @MainActor func aChangeMadeOnTheMainActorIsDeliveredBeforeTheSetterReturns() async {
        let property = MutableProperty("a")
        let view = MainActorView()
        let binding = property.bind(to: view) { view, text in view.text = text }
        #expect(view.text == "a")
        property.value = "b"
        #expect(view.text == "b")
        property.value = "c"
        #expect(view.text == "c")
        binding.dispose()
    }

    @Test @MainActor func aChangeMadeInsideABindingIsDeliveredAfterTheCurrentOne() async {
        let property = MutableProperty(0)
        let view = MainActorView()
        let binding = property.bind(to: view) { view, value in
            view.values.append(value)
            if value == 1 {
                property.value = 2
                view.values.append(-1) // marks the end of the delivery of 1
            }
        }
        property.value = 1
        #expect(view.values == [0, 1, -1, 2])
        binding.dispose()
    }

    @Test @MainActor func aSignalBindingGetsValuesSentFromADetachedTaskOnTheMainActor() async {
        let (signal, input) = Signal<Int>.pipe()
        let view = MainActorView()
        let binding = signal.bind(to: view) { view, value in
            MainActor.assertIsolated()
            dispatchPrecondition(condition: .onQueue(.main))
            view.values.append(value)
        }
        await Task.detached {
            for value in 1...1_000 { input.send(value) }
        }.value
        await mainQueueTurns(until: { view.values.count == 1_000 })
        #expect(view.values == Array(1...1_000))
        input.send(1_001)
        #expect(view.values.last == 1_001, "sent on the main actor with nothing queued: delivered at once")
        binding.dispose()
    }

    @Test @MainActor func aKeyPathBindingRunsOnTheMainActorForChangesMadeElsewhere() async {
        let viewModel = MutableProperty(ProfileViewModel(title: "A", subtitle: "s", count: 0))
        let view = MainActorView()
        let binding = viewModel.bind(\.title, to: view) { view, title in
            dispatchPrecondition(condition: .onQueue(.main))
            view.text = title
            view.updates += 1
        }
        await Task.detached {
            viewModel.value.count = 1 // the title is unchanged: skipped
            viewModel.value.title = "B"
        }.value
        await mainQueueTurns(until: { view.text == "B" })
        #expect(view.text == "B")
        #expect(view.updates == 2, "the current title, then one change")
        binding.dispose()
    }

    // MARK: observeOnMainActor

    @Test @MainActor func observeOnMainActorGetsEveryValueOfASignalSentElsewhereInOrder() async {
        let (signal, input) = Signal<Int>.pipe()
        var received: [Int] = []
        let observation = signal.observeOnMainActor { value in
            MainActor.assertIsolated()
            dispatchPrecondition(condition: .onQueue(.main))
            received.append(value)
        }
        await onThreads(1) { _ in
            for value in 1...1_000 { input.send(value) }
        }
        await mainQueueTurns(until: { received.count == 1_000 })
        #expect(received == Array(1...1_000))
        observation.dispose()
    }

    @Test @MainActor func observeOnMainActorGetsTheCurrentValueOfAPropertyAtOnceThenEveryChange() async {
        let property = MutableProperty(0)
        var received: [Int] = []
        let observation = property.observeOnMainActor { value in
            MainActor.assertIsolated()
            dispatchPrecondition(condition: .onQueue(.main))
            received.append(value)
        }
        #expect(received == [0])
        property.value = 1
        #expect(received == [0, 1], "a change made on the main actor is delivered before the setter returns")
        await Task.detached {
            for value in 2...500 { property.value = value }
        }.value
        await mainQueueTurns(until: { received.count == 501 })
        #expect(received == Array(0...500))
        observation.dispose()
    }

    @Test @MainActor func observeOnMainActorCalledOffTheMainActorDeliversTheCurrentValueOnIt() async {
        let property = MutableProperty(7)
        let received = Locked<[Int]>([])
        let observation = await Task.detached {
            property.observeOnMainActor { value in
                dispatchPrecondition(condition: .onQueue(.main))
                received.append(value)
            }
        }.value
        await mainQueueTurns(until: { received.value == [7] })
        #expect(received.value == [7])
        observation.dispose()
    }

    @Test @MainActor func aValueSentFromInsideAMainActorObserverIsDeliveredAfterTheCurrentOne() async {
        let (signal, input) = Signal<Int>.pipe()
        var log: [String] = []
        let first = signal.observeOnMainActor { value in
            log.append("first \(value)")
            if value == 1 {
                input.send(2)
                log.append("first sent 2")
            }
        }
        let second = signal.observeOnMainActor { log.append("second \($0)") }
        input.send(1)
        #expect(log == ["first 1", "first sent 2", "second 1", "first 2", "second 2"])
        first.dispose()
        second.dispose()
    }

    @Test @MainActor func aValueSentOnTheMainActorWaitsBehindValuesQueuedFromOtherThreads() async {
        let (signal, input) = Signal<Int>.pipe()
        var received: [Int] = []
        let observation = signal.observeOnMainActor { received.append($0) }
        // This test holds the main actor while another queue sends: those values are queued.
        DispatchQueue(label: "isolation-tests.sender").sync {
            for value in 1...10 { input.send(value) }
        }
        #expect(received.isEmpty)
        input.send(11)
        #expect(received.isEmpty, "sent on the main actor, but must not overtake the queued values")
        await mainQueueTurns(until: { received.count == 11 })
        #expect(received == Array(1...11))
        input.send(12)
        #expect(received == Array(1...12), "nothing queued any more: delivered at once")
        observation.dispose()
    }

    @Test @MainActor func disposingAMainActorObserverDropsTheValuesStillQueuedForIt() async {
        let (signal, input) = Signal<Int>.pipe()
        var received: [Int] = []
        let observation = signal.observeOnMainActor { received.append($0) }
        DispatchQueue(label: "isolation-tests.sender").sync {
            for value in 1...10 { input.send(value) }
        }
        observation.dispose()
        await mainQueueTurn()
        #expect(received.isEmpty)
    }

    @Test @MainActor func aCombinationOfTwoMapsObservedOnTheMainActorGetsOneValuePerChange() async {
        let a = MutableProperty(0)
        let pair = Property.combineLatest(a.map { $0 * 10 }, a.map { "\($0)" })
        var received: [String] = []
        let observation = pair.observeOnMainActor { number, text in
            dispatchPrecondition(condition: .onQueue(.main))
            received.append("\(number)/\(text)")
        }
        await Task.detached {
            for value in 1...500 { a.value = value }
        }.value
        await mainQueueTurns(until: { received.count == 501 })
        a.value = 501
        #expect(received == (0...501).map { "\($0 * 10)/\($0)" })
        observation.dispose()
    }
}
