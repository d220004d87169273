import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

/// Regressions for defects found in review; each failed before its fix.
@Suite struct ReviewRegressionTests {
    @Test func settingARootFromADerivedPropertysInitialCallbackStaysGlitchFree() {
        let a = MutableProperty(0)
        let m = a.map { $0 }
        let n = a.map { $0 * 10 }
        let combined = Property.combineLatest(m, n)
        let recorder = combined.signal.record()
        let didSet = Locked(false)
        let observation = m.observe { _ in
            if !didSet.testAndSet() {
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
            let sawFirst = Locked(false)
            holder.subscription.value = m.observe { _ in
                guard !sawFirst.testAndSet() else { return }
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
        let lateCompleted = Locked(false)
        let keep = Locked<Disposable?>(nil)
        zipped.observe { _ in
            firstInput.sendCompleted()
            keep.value = zipped.observeCompleted { lateCompleted.value = true }
        }
        firstInput.send(1)
        secondInput.send(10)
        #expect(lateCompleted.value)
        #expect(keep.value?.isDisposed == true)
    }

    @Test func anObserverAddedByACompletionHandlerIsCompletedAtOnce() {
        let (first, firstInput) = Signal<Int>.pipe()
        let (second, _) = Signal<Int>.pipe()
        let zipped = Signal.zip(first, second)
        let nested = Locked(false)
        zipped.observeCompleted {
            zipped.observeCompleted { nested.value = true }
        }
        firstInput.sendCompleted()
        #expect(nested.value)
    }

    @Test func anObserverRemovedDuringALongBurstIsFreedBeforeTheBurstEnds() {
        let (signal, input) = Signal<Int>.pipe()
        let tracker = ReleaseTracker()
        let victim = Locked<Disposable?>(nil)
        do {
            let token = Token()
            tracker.track(token, "victim capture")
            victim.value = signal.observe { _ in _ = token }
        }
        let aliveMidBurst = Locked<[String]>(["not checked"])
        signal.observe { value in
            if value < 200 { input.send(value + 1) }
            if value == 10 { victim.value?.dispose() }
            if value == 150 { aliveMidBurst.value = tracker.alive }
        }
        input.send(0)
        #expect(aliveMidBurst.value.isEmpty)
    }

    @Test func applyFromAnObserverThatSeesTheActionEnabledStarts() {
        let finish = Locked<(@Sendable (Result<Int, any Error>) -> Void)?>(nil)
        let action = Action<Int, Int> { _, done in finish.value = done }
        let restarted = Locked(false)
        let retried = Locked(false)
        let observation = action.isEnabled.signal.observe { enabled in
            if enabled && !retried.testAndSet() {
                restarted.value = action.apply(2)
            }
        }
        #expect(action.apply(1))
        finish.value?(.success(1))
        #expect(restarted.value)
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
final class Holder: Sendable {
    let subscription = Locked<Disposable?>(nil)
}

@Suite struct CommittedValueTests {
    @Test func anObserverOfACombinationRegisteredMidDeliveryMissesNothing() {
        let a = MutableProperty(0)
        let b = MutableProperty(0)
        let sum = Property.combineLatest(a, b).map { $0 + $1 }
        let late = Locked<[Int]>([])
        let added = Locked(false)
        let keep = Locked<Disposable?>(nil)
        sum.signal.observe { value in
            guard !added.testAndSet() else { return }
            keep.value = sum.observe { late.append($0) }
            b.value = 5
        }
        a.value = 1
        #expect(late.value == [1, 6])
        #expect(keep.value != nil)
    }

    @Test func concurrentObserversOfADerivedPropertyEndOnTheLatestValue() {
        let source = MutableProperty(0)
        let doubled = source.map { $0 * 2 }
        let lastSeen = Locked<[Int]>([])
        let subscriptions = Locked<[Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            if index == 0 {
                for value in 1...2_000 { source.value = value }
            } else {
                for _ in 0..<50 {
                    let slot = Locked(-1)
                    let subscription = doubled.observe { value in slot.value = value }
                    subscriptions.append(subscription)
                    _ = slot
                }
                let slot = Locked(-1)
                let last = doubled.observe { value in slot.value = value }
                // The final value may still be on its way (the setter's thread delivers it):
                // wait for it, but not forever.
                let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
                while slot.value != 4_000, DispatchTime.now().uptimeNanoseconds < deadline {}
                lastSeen.append(slot.value)
                last.dispose()
            }
        }
        #expect(lastSeen.value == [4_000, 4_000, 4_000])
        subscriptions.value.forEach { $0.dispose() }
    }
}

/// Found by the review of the isolation work.
@Suite struct IsolationReviewRegressionTests {
    @Test @MainActor func valuesQueuedForTheMainActorArriveWhenTheSignalCompletesRightAfterThem() async {
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

    @Test func cancellingFromAnObserverOfTheStartOfARunEndsThatRun() {
        let action = Action<Int, Int> { input, done in done(.success(input)) }
        let values = Locked<[Int]>([])
        let errors = Locked(0)
        action.values.observe { values.append($0) }
        action.errors.observe { _ in _ = errors.increment() }
        let canceller = action.isExecuting.signal.observe { if $0 { action.cancel() } }
        #expect(action.apply(1))
        #expect(values.value.isEmpty)
        #expect(errors.value == 1)
        #expect(!action.isExecuting.value)
        canceller.dispose()
        #expect(action.apply(2))
        #expect(values.value == [2], "a later run is not cancelled by the earlier cancel")
    }

    @Test func aFollowerOnASchedulerAndAZipKeepFollowingOnceTheirPropertyIsLetGo() {
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
