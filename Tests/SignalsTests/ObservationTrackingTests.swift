import Dispatch
import Observation
import SignalsTesting
import Testing

@testable import Signals

/// Reading a property's `value` inside `withObservationTracking` is tracked: `onChange` runs
/// once, on the changing thread, after a real change. See "Observation" in
/// Sources/Signals/Signals.docc/Contract.md.
@Suite(.timeLimit(.minutes(1))) struct ObservationTrackingTests {
    @Test func readingAMutablePropertyInsideTrackingFiresOnChangeOnceWhenItChanges() {
        let count = MutableProperty(1)
        let seen = Locked<[Int]>([])
        let read = withObservationTracking {
            count.value
        } onChange: {
            seen.append(count.value)
        }
        #expect(read == 1)
        #expect(seen.value.isEmpty)
        count.value = 2
        // `onChange` runs once the new value can be read, and once per tracking.
        count.value = 3
        #expect(seen.value == [2])
        #expect((count as Any) is any Observable)
    }

    @Test func aMappedPropertyIsTracked() {
        let count = MutableProperty(1)
        let label = count.map { "\($0) homes" }
        let seen = Locked<[String]>([])
        let read = withObservationTracking {
            label.value
        } onChange: {
            seen.append(label.value)
        }
        #expect(read == "1 homes")
        count.value = 2
        count.value = 3
        #expect(seen.value == ["2 homes"])
    }

    @Test func aCombinedPropertyIsTrackedThroughEachInput() {
        let name = MutableProperty("ada")
        let age = MutableProperty(36)
        let form = Property.combineLatest(name, age)
        let changes = Locked(0)
        _ = withObservationTracking {
            form.value
        } onChange: {
            _ = changes.increment()
        }
        age.value = 37
        #expect(changes.value == 1)
        _ = withObservationTracking {
            form.value
        } onChange: {
            _ = changes.increment()
        }
        name.value = "grace"
        name.value = "lin"
        #expect(changes.value == 2)
    }

    @Test func aChangeOfAPropertyNotReadDoesNotFire() {
        let read = MutableProperty(1)
        let other = MutableProperty(1)
        let changes = Locked(0)
        _ = withObservationTracking {
            read.value
        } onChange: {
            _ = changes.increment()
        }
        other.value = 2
        #expect(changes.value == 0)
        read.value = 2
        #expect(changes.value == 1)
    }

    @Test func anEqualValueADerivedPropertySkipsDoesNotFire() {
        let count = MutableProperty(1)
        let parity = count.map { $0 % 2 }
        let changes = Locked(0)
        _ = withObservationTracking {
            parity.value
        } onChange: {
            _ = changes.increment()
        }
        count.value = 3
        #expect(changes.value == 0)
        count.value = 4
        #expect(changes.value == 1)
    }

    @Test func onChangeRunsOnTheThreadThatChangesTheProperty() {
        let marked = MarkedQueue(label: "observation-tests.setting")
        let count = MutableProperty(1)
        let onSetter = Locked<[Bool]>([])
        _ = withObservationTracking {
            count.value
        } onChange: {
            onSetter.append(marked.isCurrent)
        }
        marked.queue.sync { count.value = 2 }
        #expect(onSetter.value == [true])
    }

    @Test func onlyAReadOfValueMakesAPropertyObserveForTracking() {
        let count = MutableProperty(1)
        let observers = { count.node.core.withLock { count.node.core.observers.count } }
        count.value = 2
        _ = count.map { $0 + 1 }.value
        // Combining reads each input's value, through its node.
        _ = Property.combineLatest(count, count).value
        _ = Property.combineLatest(count, count, count).value
        _ = Property.combineLatest([count]).value
        #expect(observers() == 0, "no read of `value`: nothing observes")
        _ = count.value
        _ = count.value
        #expect(observers() == 1, "the first read observes, once")
    }

    @Test func firstReadsOnSeveralThreadsAtOnceObserveOnce() async {
        let count = MutableProperty(0)
        let changes = Locked(0)
        await onThreads(8) { index in
            _ = withObservationTracking {
                count.value
            } onChange: {
                _ = changes.increment()
            }
            if index == 0 { count.value = 1 }
        }
        #expect(count.node.core.withLock { count.node.core.observers.count } == 1)
        // Each tracking hears the first set after it was installed, once: the threads' at
        // the set made among them or at this one, this test's at this one.
        _ = withObservationTracking {
            count.value
        } onChange: {
            _ = changes.increment()
        }
        count.value = 2
        #expect(changes.value == 9)
    }

    @Test func aPropertyReadInsideTrackingIsReleasedWhenFreed() {
        let count = MutableProperty(1)
        let transforms = Locked(0)
        weak var weakCore: SignalCore<Change<Int>>?
        do {
            let doubled = count.map { value in
                _ = transforms.increment()
                return value * 2
            }
            weakCore = doubled.node.core
            _ = withObservationTracking {
                doubled.value
            } onChange: {
            }
        }
        #expect(weakCore == nil)
        let before = transforms.value
        count.value = 2
        #expect(transforms.value == before, "the freed property no longer follows its source")
        #expect(count.node.core.withLock { count.node.core.observers.isEmpty })
    }
}
