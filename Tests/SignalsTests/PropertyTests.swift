import Signals
import SignalsTesting
import Testing

@Suite struct PropertyTests {
    @Test(.tags(.regression)) func theCurrentAndChangesOfATemporaryDerivedPropertyFollowItsSource() {
        // `rows.map(\.count)` is freed as soon as `currentAndChanges` has been read, before
        // the recorder observes it: its node used to let go of `rows` then, and the
        // recorder got the current value and nothing more (ReactiveSwift's habit,
        // `property.map(f).producer`).
        let rows = MutableProperty([1, 2])
        let counts = rows.map(\.count).currentAndChanges.record()
        let inner = MutableProperty(rows)
        let switched = inner.flatMapLatest { $0.map(\.count) }
        rows.value = [1, 2, 3]
        rows.value = []
        counts.assertValues([2, 3, 0])
        #expect(switched.value == 0)
    }

    @Test func observeDeliversTheCurrentValueThenEveryChange() {
        let property = MutableProperty("a")
        let recorder = property.record()
        property.value = "b"
        property.value = "b"
        recorder.assertValues(["a", "b", "b"])
    }

    @Test func signalCarriesLaterChangesOnly() {
        let property = MutableProperty(1)
        let recorder = property.signal.record()
        property.value = 2
        recorder.assertValues([2])
        // Each read gives a wrapper of the signal in use; all of them carry every change.
        let later = property.signal.record()
        property.value = 3
        recorder.assertValues([2, 3])
        later.assertValues([3])
    }

    @Test(.tags(.regression)) func aPropertyWhoseSignalWasReadIsFreedOnceNothingUsesIt() {
        // The signal's core is not owned by the property's node: a property fed by a
        // subscription of its own (here `flatMapLatest`, over roots its closure keeps)
        // would otherwise keep itself, and those roots, alive for good.
        let tracker = ReleaseTracker()
        var selected: MutableProperty<Int>? = MutableProperty(0)
        var folders: [MutableProperty<Int>]? = [MutableProperty(1), MutableProperty(2)]
        tracker.track(selected!, "selected")
        for (index, folder) in folders!.enumerated() { tracker.track(folder, "folder \(index)") }
        var rows: Property<Int>? = selected!.flatMapLatest { [folders] in folders![$0] }
        let observation = rows!.signal.observe { _ in }
        selected?.value = 1
        observation.dispose()
        rows = nil
        selected = nil
        folders = nil
        tracker.assertAllReleased()
    }

    @Test func readOnlyViewFollowsAndKeepsItsSourceAlive() {
        let tracker = ReleaseTracker()
        var view: Property<Int>?
        do {
            let source = MutableProperty(1)
            tracker.track(source, "source")
            view = Property(source)
            source.value = 5
        }
        #expect(view?.value == 5)
        #expect(tracker.alive == ["source"])
        view = nil
        tracker.assertAllReleased()
    }

    @Test func constantPropertyDeliversItsValueAndCompletes() {
        let constant = Property(value: 7)
        let recorder = constant.record()
        recorder.assertEvents([.value(7), .completed])
        #expect(constant.value == 7)
    }

    @Test func mapOfAMutablePropertyIsAReadOnlyProperty() {
        let property = MutableProperty(2)
        let squared: Property<Int> = property.map { $0 * $0 }
        let recorder = squared.record()
        property.value = 3
        recorder.assertValues([4, 9])
        #expect(squared.value == 9)
    }

    @Test func skipRepeatsNotifiesOnlyRealChanges() {
        let property = MutableProperty(1)
        let recorder = property.skipRepeats().record()
        property.value = 1
        property.value = 2
        property.value = 2
        property.value = 1
        recorder.assertValues([1, 2, 1])
    }

    @Test func skipRepeatsWithACustomEquivalence() {
        let property = MutableProperty("a")
        let recorder = property.skipRepeats { $0.lowercased() == $1.lowercased() }.record()
        property.value = "A"
        property.value = "b"
        recorder.assertValues(["a", "b"])
    }

    @Test func combineLatestInfersTupleTypesAndReadsBothValues() {
        let count = MutableProperty(1)
        let name = MutableProperty("x")
        let both = Property.combineLatest(count, name)
        #expect(both.value == (1, "x"))
        name.value = "y"
        #expect(both.value == (1, "y"))
    }

    @Test func derivedPropertyValueIsFreshRightAfterASet() {
        let source = MutableProperty(1)
        let doubled = source.map { $0 * 2 }
        source.value = 21
        #expect(doubled.value == 42)
    }

    @Test func observeFromInsideAnObserverQueuesTheCurrentValueInOrder() {
        let property = MutableProperty(0)
        let nested = Locked<[Int]>([])
        let didObserve = Locked(false)
        property.observe { value in
            guard value == 1, !didObserve.testAndSet() else { return }
            property.observe { nested.append($0) }
            property.value = 2
        }
        property.value = 1
        #expect(nested.value == [1, 2])
    }

    @Test func derivedPropertyCompletesWhenItsSourceIsFreed() {
        var source: MutableProperty<Int>? = MutableProperty(1)
        let recorder = source!.map { $0 + 1 }.signal.record()
        source?.value = 2
        source = nil
        recorder.assertEvents([.value(3), .completed])
    }

    @Test(.tags(.regression)) func aCombinationKeepsDeliveringAfterAStepQueuedWhileItsObserversChanged() {
        // From inside the combination's delivery: a change of `a` queues a step, and a new
        // observer arrives before it runs. The step's snapshot is let go after it (it is
        // the list of before the new observer); the next change must still reach both.
        let a = MutableProperty(1)
        let b = MutableProperty(10)
        let combined = Property.combineLatest(a, b)
        let first = Locked<[Int]>([])
        let added = Locked<Recorder<(Int, Int)>?>(nil)
        let observer = combined.observe { value in
            first.append(value.0 + value.1)
            guard value.0 == 1, value.1 == 11 else { return }
            a.value = 2
            added.value = combined.record()
        }
        b.value = 11
        b.value = 20
        #expect(first.value == [11, 12, 13, 22])
        #expect(added.value?.values.map { $0.0 + $0.1 } == [12, 13, 22])
        observer.dispose()
    }
}
