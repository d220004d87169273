import Dispatch
import SignalsTesting
import Synchronization
import Testing

@testable import Signals

/// Who keeps a core alive: its owners (the wrappers), itself while it has observers and
/// no owner, and, for a caller disposing an observer the completion took from the list, a
/// loan from the completion. An observer does not retain its core.
@Suite struct CoreRetainTests {
    @Test func anObservedCoreWithNoOwnerRetainsItselfUntilItsLastObserverLeaves() {
        let (signal, input) = Signal<Int>.pipe()
        weak var weakCore: SignalCore<Int>?
        let first: Disposable
        let second: Disposable
        do {
            let mapped = signal.map { $0 + 1 }
            weakCore = mapped.core
            first = mapped.observe { _ in }
            second = mapped.observe { _ in }
            #expect(mapped.core.withLock { !mapped.core.retainsItself }, "an owned core needs no retain of its own")
        }
        #expect(weakCore?.withLock { weakCore?.retainsItself } == true)
        first.dispose()
        #expect(weakCore?.withLock { weakCore?.retainsItself } == true, "one observer is left")
        second.dispose()
        #expect(weakCore == nil)
        withExtendedLifetime(input) {}
    }

    @Test func aNewOwnerTakesOverFromTheCoresOwnRetain() {
        let (signal, input) = Signal<Int>.pipe()
        var mapped: Signal<Int>? = signal.map { $0 + 1 }
        let mappedCore = mapped!.core
        let recorder = mapped!.record()
        mapped = nil
        #expect(mappedCore.withLock { mappedCore.retainsItself })
        let owner = Signal(core: mappedCore)
        #expect(mappedCore.withLock { !mappedCore.retainsItself })
        input.send(1)
        recorder.assertValues([2])
        withExtendedLifetime(owner) {}
    }

    @Test func theCompletionLetsGoOfTheCoresOwnRetain() {
        var input: Signal<Int>.Input?
        weak var weakCore: SignalCore<Int>?
        let recorder: Recorder<Int>
        do {
            let (signal, made) = Signal<Int>.pipe()
            input = made
            weakCore = signal.core
            recorder = signal.record()
        }
        #expect(weakCore?.withLock { weakCore?.retainsItself } == true)
        input?.send(1)
        input = nil
        recorder.assertEvents([.value(1), .completed])
        #expect(weakCore == nil)
    }

    @Test func aCallerDisposingAnObserverTheCompletionTookSettlesWithoutALoan() throws {
        // The completion takes both observers from the list, then completes them in turn;
        // the first disposes the second, which is no longer listed: its caller settles
        // first, so the completion lends nothing.
        let input = Locked<Signal<Int>.Input?>(nil)
        weak var weakCore: SignalCore<Int>?
        let second = Locked<Disposable?>(nil)
        let secondCompleted = Locked(false)
        do {
            let (signal, made) = Signal<Int>.pipe()
            input.value = made
            weakCore = signal.core
            signal.observeCompleted { second.value?.dispose() }
            second.value = signal.observeCompleted { secondCompleted.value = true }
        }
        input.value = nil
        let observer = try #require(second.value as? Observer<Int>)
        #expect(observer.isDisposedByCaller)
        #expect(!secondCompleted.value)
        #expect(observer.lending.load(ordering: .relaxed) == Observer<Int>.removalDone)
        #expect(weakCore == nil, "nothing kept the core")
    }

    @Test func whatADeliveryLetsGoBetweenQueuedItemsIsFreedBeforeItLocksAgain() {
        // The combination's only observer sends again (queued behind this delivery) and
        // leaves: the combination lets go of its link on the `map`, which shares the
        // pipe's delivery, and whose closures hold the list of inputs, the `map`'s last
        // wrapper. The delivery runs the queued value, then frees the link, and with it
        // that wrapper, whose release locks the delivery: before its next turn locks, or
        // it spins forever (as a debug build did in the concurrent model check).
        let (source, input) = Signal<Int>.pipe()
        let received = Locked<[[Int]]>([])
        let subscription = Locked<Disposable?>(nil)
        weak var weakMapCore: SignalCore<Int>?
        do {
            let mapped = source.map { $0 * 10 }
            weakMapCore = mapped.core
            subscription.value = Signal.combineLatest([mapped]).observe { values in
                received.append(values)
                input.send(2)
                subscription.value?.dispose()
            }
        }
        input.send(1)
        input.send(3)
        #expect(received.value == [[10]])
        #expect(weakMapCore == nil, "the map's core went with its last wrapper")
    }

    @Test func aLateObserverDisposedBeforeItsCatchUpSettlesWithoutALoan() throws {
        // Added while the completion waits behind the delivery in progress, the late
        // observer is never listed; disposed before its catch-up runs, its caller settles
        // first, and the catch-up finds it disposed and lends nothing.
        let (signal, input) = Signal<Int>.pipe()
        let late = Locked<Disposable?>(nil)
        let lateEvents = Locked(0)
        let sender = signal.observe { _ in
            input.sendCompleted()
            let made = signal.observe { _ in lateEvents.value += 1 }
            late.value = made
            made.dispose()
        }
        input.send(1)
        let observer = try #require(late.value as? Observer<Int>)
        #expect(observer.isDisposedByCaller)
        #expect(lateEvents.value == 0)
        #expect(observer.lending.load(ordering: .relaxed) == Observer<Int>.removalDone)
        sender.dispose()
    }

    @Test func disposingWhileAnotherThreadFreesTheInputTouchesNoFreedCore() {
        // The wrapper is gone, so the core is held by the input and by itself; freeing the
        // input completes it and lets both go while another thread disposes an observer:
        // whichever comes first, the disposer's `remove` runs on a live core, and nothing
        // is left behind.
        let tracker = ReleaseTracker()
        for _ in 0..<2_000 {
            let input = Locked<Signal<Int>.Input?>(nil)
            let subscription: Disposable
            weak var weakCore: SignalCore<Int>?
            do {
                let (signal, made) = Signal<Int>.pipe()
                input.value = made
                weakCore = signal.core
                let token = Token()
                tracker.track(token, "observer capture")
                subscription = signal.observe { _ in _ = token }
            }
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 { input.value = nil } else { subscription.dispose() }
            }
            #expect(weakCore == nil, "the core, or a retain lent for it, was kept")
        }
        tracker.assertAllReleased()
    }

    @Test func anObserverHoldingItsSignalsLastOwnerLetsItGoOnDispose() {
        // The observer's closure holds the only wrapper of a core nothing else holds:
        // clearing it frees the core, which happens once `remove` has returned.
        weak var weakCore: SignalCore<Int>?
        let subscription: Disposable
        do {
            let signal = Signal<Int>.never
            weakCore = signal.core
            subscription = signal.observe { _ in _ = signal }
        }
        #expect(weakCore != nil)
        subscription.dispose()
        #expect(weakCore == nil)
    }
}
