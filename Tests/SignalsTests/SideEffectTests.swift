import Signals
import SignalsTesting
import Testing

/// `on(value:completed:)` and `logEvents(_:to:)`: side effects that run as events pass.
@Suite struct SideEffectTests {
    @Test func sideEffectsRunOncePerEventBeforeTheObservers() {
        let (signal, input) = Signal<Int>.pipe()
        let log = Locked<[String]>([])
        let tapped = signal.on(value: { log.append("effect \($0)") }, completed: { log.append("effect completed") })
        let first = tapped.observe { log.append("first \($0)") }
        let second = tapped.observe { log.append("second \($0)") }
        let completion = tapped.observeCompleted { log.append("observer completed") }
        input.send(1)
        input.sendCompleted()
        #expect(
            log.value == [
                "effect 1", "first 1", "second 1", "effect completed", "observer completed",
            ])
        first.dispose()
        second.dispose()
        completion.dispose()
    }

    @Test func valuesAndTheCompletionPassUnchanged() {
        let scheduler = TestScheduler()
        let (signal, input) = Signal<String>.pipe()
        let recorder = signal.on(value: { _ in }).on(completed: {}).record(on: scheduler)
        scheduler.drive(input, with: "a-b|")
        scheduler.run()
        recorder.assertMarbles("a-b|")
    }

    @Test func aValueSentFromInsideAnObserverPassesTheEffectAfterTheCurrentOne() {
        let (signal, input) = Signal<Int>.pipe()
        let effects = Locked<[Int]>([])
        let tapped = signal.on(value: { effects.append($0) })
        let recorder = tapped.record()
        let echo = tapped.observe { if $0 == 1 { input.send(2) } }
        input.send(1)
        #expect(effects.value == [1, 2])
        recorder.assertValues([1, 2])
        echo.dispose()
    }

    @Test func effectsStopWhenTheReleasedSignalLosesItsLastObserver() {
        let (signal, input) = Signal<Int>.pipe()
        let effects = Locked<[Int]>([])
        var subscription: Disposable?
        do {
            subscription = signal.on(value: { effects.append($0) }).observe { _ in }
        }
        input.send(1)
        subscription?.dispose()
        input.send(2)
        #expect(effects.value == [1])
    }

    @Test func anObserverDisposedMidDeliveryMissesTheValueTheEffectAlreadySaw() {
        let (signal, input) = Signal<Int>.pipe()
        let effects = Locked<[Int]>([])
        let tapped = signal.on(value: { effects.append($0) })
        let late = Locked<Disposable?>(nil)
        let lateValues = Locked<[Int]>([])
        let first = tapped.observe { _ in late.value?.dispose() }
        late.value = tapped.observe { lateValues.append($0) }
        input.send(1)
        #expect(effects.value == [1])
        #expect(lateValues.value == [], "disposed before its turn came")
        first.dispose()
    }

    // MARK: logEvents

    @Test func logEventsWritesEachEventWithItsLabel() {
        let (signal, input) = Signal<Int>.pipe()
        let lines = Locked<[String]>([])
        let logged = signal.logEvents("taps", to: { lines.append($0) })
        #expect(lines.value == [], "nothing before the first observer")
        let recorder = logged.record()
        input.send(1)
        input.send(2)
        input.sendCompleted()
        #expect(lines.value == ["taps: started", "taps: value(1)", "taps: value(2)", "taps: completed"])
        recorder.assertEvents([.value(1), .value(2), .completed])
    }

    @Test func logEventsTellsWhenTheSignalLetsGoOfItsSourceWithoutCompleting() {
        let (signal, input) = Signal<String>.pipe()
        let lines = Locked<[String]>([])
        var subscription: Disposable?
        do {
            subscription = signal.logEvents("query", to: { lines.append($0) }).observe { _ in }
        }
        input.send("ho")
        subscription?.dispose()
        input.send("home")
        #expect(lines.value == ["query: started", "query: value(ho)", "query: disposed"])
    }

    @Test func logEventsOfAStartOnceSignalLogsWhatItSendsAtOnce() {
        let lines = Locked<[String]>([])
        Signal(value: 3).logEvents("one", to: { lines.append($0) }).record()
            .assertEvents([.value(3), .completed])
        #expect(lines.value == ["one: started", "one: value(3)", "one: completed"])
    }
}
