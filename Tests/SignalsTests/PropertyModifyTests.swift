import Signals
import SignalsTesting
import Testing

/// `MutableProperty.modify`: a read-modify-write in one atomic step, one notification.
@Suite(.timeLimit(.minutes(1))) struct PropertyModifyTests {
    struct Failure: Error, Equatable {}

    @Test func modifyChangesTheValueInPlaceAndReturnsWhatTheClosureReturns() {
        let list = MutableProperty([1, 2])
        let recorder = list.record()
        let count = list.modify { values in
            values.append(3)
            return values.count
        }
        #expect(count == 3)
        #expect(list.value == [1, 2, 3])
        recorder.assertValues([[1, 2], [1, 2, 3]])
    }

    @Test func severalChangesInOneModifyNotifyOnce() {
        let list = MutableProperty<[Int]>([])
        let recorder = list.record()
        let changes = list.signal.record()
        list.modify { values in
            values.append(1)
            values.append(2)
            values.removeFirst()
        }
        recorder.assertValues([[], [2]])
        changes.assertValues([[2]])
    }

    @Test func aModifyThatChangesNothingStillNotifiesOnceAsASetDoes() {
        let count = MutableProperty(5)
        let recorder = count.record()
        let read = count.modify { $0 }
        #expect(read == 5)
        recorder.assertValues([5, 5])
    }

    @Test func aThrowingModifyKeepsWhatItWroteNotifiesOnceAndRethrows() {
        let count = MutableProperty(0)
        let recorder = count.record()
        #expect(throws: Failure()) {
            try count.modify { (value: inout Int) throws(Failure) in
                value = 7
                throw Failure()
            }
        }
        #expect(count.value == 7)
        recorder.assertValues([0, 7])
    }

    @Test func concurrentIncrementsFromManyThreadsLoseNoUpdateAndEachNotifiesOnce() async {
        let threads = 8
        let perThread = 500
        let count = MutableProperty(0)
        let notifications = Locked(0)
        let seen = Locked<[Int]>([])
        let observation = count.signal.observe { _ in notifications.increment() }
        await onThreads(threads) { _ in
            for _ in 0..<perThread {
                let before = count.modify { value in
                    defer { value += 1 }
                    return value
                }
                seen.append(before)
            }
        }
        observation.dispose()
        let total = threads * perThread
        #expect(count.value == total)
        #expect(notifications.value == total)
        // Each call read a value no other call read: no two saw the same one.
        #expect(seen.value.sorted() == Array(0..<total))
    }

    @Test func observersRunOutsideTheLockAndMayReadOrModifyTheProperty() {
        let count = MutableProperty(0)
        let seen = Locked<[String]>([])
        let observation = count.signal.observe { value in
            seen.append("saw \(value), reads \(count.value)")
            if value == 1 { count.modify { $0 += 10 } }
        }
        let returned = count.modify { value in
            value += 1
            return "done"
        }
        seen.append(returned)
        observation.dispose()
        // The change made from the observer is delivered after the current one (FIFO),
        // before the outer `modify` returns.
        #expect(seen.value == ["saw 1, reads 1", "saw 11, reads 11", "done"])
    }

    @Test func aModifyReachesDerivedPropertiesOnceAndGlitchFree() {
        let count = MutableProperty(1)
        let pairs = Property.combineLatest(count, count.map { $0 * 2 }).record()
        count.modify { $0 += 1 }
        pairs.assertValues([(1, 2), (2, 4)], by: ==)
    }
}
