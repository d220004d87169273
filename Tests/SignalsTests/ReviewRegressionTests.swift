import Dispatch
import Foundation
import Signals
import SignalsTesting
import Synchronization
import Testing

/// Regressions for defects found in review; each failed before its fix.
@Suite struct ReviewRegressionTests {
    @Test func settingARootFromADerivedPropertysInitialCallbackStaysGlitchFree() {
        let a = MutableProperty(0)
        let m = a.map { $0 }
        let n = a.map { $0 * 10 }
        let combined = Property.combineLatest(m, n)
        let recorder = combined.signal.record()
        var once = true
        let observation = m.observe { _ in
            if once {
                once = false
                a.value = 1
            }
        }
        recorder.assertValues([(1, 10)], by: { $0 == $1 })
        observation.dispose()
    }

    @Test func anObserverBusyInItsInitialCallbackDoesNotSplitAChangeMadeElsewhere() {
        let a = MutableProperty(0)
        let m = a.map { $0 }
        let n = a.map { $0 * 10 }
        let combined = Property.combineLatest(m, n)
        let recorder = combined.signal.record()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let holder = Holder()
        DispatchQueue.global().async {
            var first = true
            holder.subscription = m.observe { _ in
                guard first else { return }
                first = false
                entered.signal()
                release.wait()
            }
            done.signal()
        }
        entered.wait()
        a.value = 1
        release.signal()
        done.wait()
        recorder.assertValues([(1, 10)], by: { $0 == $1 })
        #expect(combined.value == (1, 10))
    }

    @Test func anObserverAddedWhileAZipCompletesGetsTheCompletion() {
        let (first, firstInput) = Signal<Int>.pipe()
        let (second, secondInput) = Signal<Int>.pipe()
        let zipped = Signal.zip(first, second)
        var lateCompleted = false
        var keep: Disposable?
        zipped.observe { _ in
            firstInput.sendCompleted()
            keep = zipped.observeCompleted { lateCompleted = true }
        }
        firstInput.send(1)
        secondInput.send(10)
        #expect(lateCompleted)
        #expect(keep?.isDisposed == true)
    }

    @Test func anObserverAddedByACompletionHandlerIsCompletedAtOnce() {
        let (first, firstInput) = Signal<Int>.pipe()
        let (second, _) = Signal<Int>.pipe()
        let zipped = Signal.zip(first, second)
        var nested = false
        zipped.observeCompleted {
            zipped.observeCompleted { nested = true }
        }
        firstInput.sendCompleted()
        #expect(nested)
    }

    @Test func anObserverRemovedDuringALongBurstIsFreedBeforeTheBurstEnds() {
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        var victim: Disposable?
        do {
            let token = Token()
            tracker.track(token, "victim capture")
            victim = signal.observe { _ in _ = token }
        }
        var aliveMidBurst: [String] = ["not checked"]
        signal.observe { value in
            if value < 200 { input.send(value + 1) }
            if value == 10 { victim?.dispose() }
            if value == 150 { aliveMidBurst = tracker.alive }
        }
        input.send(0)
        #expect(aliveMidBurst.isEmpty)
    }

    @Test func applyFromAnObserverThatSeesTheActionEnabledStarts() {
        var finish: ((Result<Int, any Error>) -> Void)?
        let action = Action<Int, Int> { _, done in finish = done }
        var restarted = false
        var retried = false
        let observation = action.isEnabled.signal.observe { enabled in
            if enabled && !retried {
                retried = true
                restarted = action.apply(2)
            }
        }
        #expect(action.apply(1))
        finish?(.success(1))
        #expect(restarted)
        #expect(action.isExecuting.value)
        observation.dispose()
    }

    @Test func ownedPipesAreNotReportedAsLiveBindings() {
        final class Screen {
            let taps = Signal<Int>.pipe()
            let title = MutableProperty("x")
        }
        let screen = Screen()
        let observers = DisposeBag()
        screen.taps.output.observe { _ in }.dispose(in: observers)
        screen.title.observe { _ in }.dispose(in: observers)
        #expect(liveBindings(in: screen).isEmpty)
    }

    @Test func concurrentSetsOfBothSidesOfATwoWayBindingSettleEqual() {
        let left = MutableProperty(0)
        let right = MutableProperty(0)
        let binding = left <~> right
        for round in 0..<300 {
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 { left.value = round * 2 } else { right.value = round * 2 + 1 }
            }
            #expect(left.value == right.value, "round \(round): \(left.value) vs \(right.value)")
            if left.value != right.value { break }
        }
        binding.dispose()
    }
}

/// Keeps a disposable alive across threads.
final class Holder: @unchecked Sendable {
    var subscription: Disposable?
}

@Suite struct CommittedValueTests {
    @Test func anObserverOfACombinationRegisteredMidDeliveryMissesNothing() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let sum = Property.combineLatest(a, b).map { $0 + $1 }
        var late: [Int] = []
        var added = false
        var keep: Disposable?
        sum.signal.observe { value in
            guard !added else { return }
            added = true
            keep = sum.observe { late.append($0) }
            b.value = 5
        }
        a.value = 1
        #expect(late == [1, 6])
        #expect(keep != nil)
    }

    @Test func concurrentObserversOfADerivedPropertyEndOnTheLatestValue() {
        let source = MutableProperty(0)
        let doubled = source.map { $0 * 2 }
        let lastSeen = Mutex<[Int]>([])
        let subscriptions = Mutex<[Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            if index == 0 {
                for value in 1...2_000 { source.value = value }
            } else {
                for _ in 0..<50 {
                    let slot = Mutex(-1)
                    let subscription = doubled.observe { value in slot.withLock { $0 = value } }
                    subscriptions.withLock { $0.append(subscription) }
                    _ = slot
                }
                let slot = Mutex(-1)
                let last = doubled.observe { value in slot.withLock { $0 = value } }
                // The final value may still be on its way (the setter's thread delivers it):
                // wait for it, but not forever.
                let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
                while slot.withLock({ $0 }) != 4_000, DispatchTime.now().uptimeNanoseconds < deadline {}
                let seen = slot.withLock { $0 }
                lastSeen.withLock { $0.append(seen) }
                last.dispose()
            }
        }
        #expect(lastSeen.withLock { $0 } == [4_000, 4_000, 4_000])
        subscriptions.withLock { $0.forEach { $0.dispose() } }
    }
}
