import Dispatch
import Foundation
import Signals
import SignalsTesting
import Testing

/// Derived `Equatable` state emits only changes; a `MutableProperty` emits every set.
@Suite struct DerivedChangesTests {
    /// The feedback loop of the issue: an observer that, seeing the action disabled, sets
    /// the action's `enabledIf` to false. Before derived state emitted only changes, that
    /// set re-emitted `isEnabled == false`, which set it again, forever.
    @Test func anObserverThatDisablesAnActionWhenItSeesItDisabledDoesNotLoop() {
        let allowed = MutableProperty(true)
        let runs = ActionTests.PendingRuns<Void, Int>()
        let action = Action<Void, Int>(enabledIf: allowed) { _, done in runs.add((), done) }
        let emissions = Locked<[Bool]>([])
        let allowedSets = allowed.signal.record()
        let observation = action.isEnabled.observe { enabled in
            let count = emissions.withLock { emissions in
                emissions.append(enabled)
                return emissions.count
            }
            // Bounded, so a regression fails instead of hanging.
            if !enabled && count < 100 { allowed.value = false }
        }
        #expect(action.apply())
        #expect(emissions.value == [true, false])
        allowedSets.assertValues([false])
        runs.done(0)(.success(1))
        #expect(emissions.value == [true, false], "the run ended, but enabledIf is false now")
        #expect(!action.isEnabled.value)
        allowed.value = true
        #expect(emissions.value == [true, false, true])
        observation.dispose()
    }

    @Test func isExecutingAndIsEnabledEmitOnlyChanges() {
        let allowed = MutableProperty(true)
        let action = Action<Int, Int>(enabledIf: allowed) { input, done in done(.success(input)) }
        let executing = action.isExecuting.record()
        let enabled = action.isEnabled.record()
        allowed.value = true // set again to the same value
        #expect(action.apply(1))
        allowed.value = false
        allowed.value = false
        #expect(!action.apply(2))
        executing.assertValues([false, true, false])
        enabled.assertValues([true, false, true, false])
    }

    @Test func aMapToAnEquatableValueEmitsOnlyChanges() {
        let count = MutableProperty(1)
        let isEven = count.map { $0.isMultiple(of: 2) }
        let recorder = isEven.record()
        for value in [3, 5, 6, 8, 9, 9] { count.value = value }
        recorder.assertValues([false, true, false])
        #expect(isEven.value == false)
    }

    @Test func aMapToAValueThatIsNotEquatableEmitsEveryChange() {
        struct Parity: Sendable { let isEven: Bool }
        let count = MutableProperty(1)
        let parity = count.map { Parity(isEven: $0.isMultiple(of: 2)) }
        let recorder = parity.record()
        for value in [3, 5, 6] { count.value = value }
        #expect(recorder.values.map(\.isEven) == [false, false, false, true])
    }

    @Test func aMutablePropertyEmitsEverySetEvenOfAnEqualValue() {
        let property = MutableProperty(1)
        let recorder = property.record()
        property.value = 1
        property.value = 1
        recorder.assertValues([1, 1, 1])
    }

    @Test func aCombinationOfEquatableInputsEmitsOnlyWhenItChanges() {
        let count = MutableProperty(1)
        let name = MutableProperty("x")
        let both = Property.combineLatest(count, name)
        let recorder = both.record()
        count.value = 1
        name.value = "x"
        count.value = 2
        name.value = "x"
        name.value = "y"
        recorder.assertValues([(1, "x"), (2, "x"), (2, "y")], by: ==)
    }

    @Test func aCombinationWithAnInputThatIsNotEquatableEmitsEveryChange() {
        struct Tag: Sendable { let name: String }
        let count = MutableProperty(1)
        let tag = MutableProperty(Tag(name: "x"))
        let both = Property.combineLatest(count, tag)
        let recorder = both.record()
        count.value = 1
        tag.value = Tag(name: "x")
        #expect(recorder.values.map { "\($0.0)\($0.1.name)" } == ["1x", "1x", "1x"])
    }

    @Test func aMappedCombinationEmitsOnlyWhenItsResultChanges() {
        let username = MutableProperty("")
        let password = MutableProperty("")
        let canSubmit = Property.combineLatest(username, password).map { !$0.isEmpty && $1.count >= 8 }
        let recorder = canSubmit.record()
        username.value = "m"
        username.value = "mei"
        password.value = "correct horse"
        password.value = "correct horse battery"
        username.value = ""
        recorder.assertValues([false, true, false])
    }

    @Test func anObserverWritingAnEqualValueBackToADerivedSourceDoesNotLoop() {
        let query = MutableProperty("Tokyo")
        let normalized = query.map { $0.lowercased() }
        let writes = Locked(0)
        let observation = normalized.signal.observe { value in
            // Writes the root back with a value that maps to the same result.
            if writes.increment() < 100 { query.value = value.uppercased() }
        }
        query.value = "Osaka"
        #expect(writes.value == 1)
        #expect(query.value == "OSAKA")
        #expect(normalized.value == "osaka")
        observation.dispose()
    }

    @Test(.tags(.regression)) func settingARootFromADerivedPropertysInitialCallbackStaysGlitchFree() {
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

    @Test(.tags(.regression)) func anObserverBusyInItsInitialCallbackDoesNotSplitAChangeMadeElsewhere() {
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
}

/// Keeps a disposable alive across threads.
final class Holder: Sendable {
    let subscription = Locked<Disposable?>(nil)
}
