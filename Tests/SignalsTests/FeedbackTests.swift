import Dispatch
import Signals
import SignalsTesting
import Testing

@Suite struct FeedbackTests {
    /// Something the machine's closures capture, to see them freed.
    final class Witness: Sendable {}

    /// A producer that never ends, counting its runs and their disposals.
    static func endless(started: Locked<[Int]>, stopped: Locked<[Int]>, query: Int) -> Producer<Int, Never> {
        Producer<Int, Never>.never.on(started: { started.append(query) }, disposed: { stopped.append(query) })
    }

    @Test func anEffectsEventSentWhileReducingIsQueuedBehindIt() {
        let reduced = Locked<[Int]>([])
        let seen = Locked<[Int]>([])
        let (steps, send) = Signal<Int>.pipe()
        let machine = Property(
            initial: 0,
            reduce: { total, step in
                reduced.append(step)
                total += step
            },
            feedbacks: Feedback(steps),
            // Answers at once, while the event that made state 1 is still being delivered.
            Feedback(skippingRepeated: { $0 == 1 ? 1 : nil }) { _ in Producer(values: [10, 100]) },
            Feedback(skippingRepeated: { (total: Int) -> Int? in
                seen.append(total)
                return nil
            }) { _ in .empty })
        send.send(1)
        send.send(1000)
        #expect(reduced.value == [1, 10, 100, 1000])
        #expect(seen.value == [0, 1, 11, 111, 1111])
        #expect(machine.value == 1111)
    }

    @Test func aFeedbackStartsFromTheStateAnEarlierFeedbackMadeAtOnce() {
        let seen = Locked<[Int]>([])
        let machine = Property(
            initial: 0,
            reduce: { total, step in total += step },
            feedbacks: Feedback(skippingRepeated: { $0 == 0 ? 0 : nil }) { _ in Producer(value: 1) },
            Feedback(skippingRepeated: { (total: Int) -> Int? in
                seen.append(total)
                return nil
            }) { _ in .empty })
        #expect(machine.value == 1)
        #expect(seen.value == [1])
    }

    @Test func anEffectRunsPerQueryAndIsCancelledWhenTheQueryChanges() {
        let started = Locked<[Int]>([])
        let stopped = Locked<[Int]>([])
        let (queries, send) = Signal<Int>.pipe()
        let machine = Property(
            initial: 1,
            reduce: { query, new in query = new },
            feedbacks: Feedback(queries),
            Feedback(skippingRepeated: { $0 }) { query in
                Self.endless(started: started, stopped: stopped, query: query)
            })
        #expect(started.value == [1])
        send.send(2)
        #expect(started.value == [1, 2])
        #expect(stopped.value == [1])
        send.send(3)
        #expect(started.value == [1, 2, 3])
        #expect(stopped.value == [1, 2])
        withExtendedLifetime(machine) {}
    }

    @Test func anEqualQueryLeavesTheEffectRunning() {
        let started = Locked<[Int]>([])
        let stopped = Locked<[Int]>([])
        let (steps, send) = Signal<Int>.pipe()
        // The query is the tens of the total: 10 and 15 ask for the same thing.
        let machine = Property(
            initial: 0,
            reduce: { total, step in total += step },
            feedbacks: Feedback(steps),
            Feedback(skippingRepeated: { $0 / 10 }) { tens in
                Self.endless(started: started, stopped: stopped, query: tens)
            })
        send.send(10)
        send.send(5)
        #expect(machine.value == 15)
        #expect(started.value == [0, 1])
        #expect(stopped.value == [0])
    }

    @Test func anEffectStopsWhenItsQueryBecomesNil() {
        let started = Locked<[Int]>([])
        let stopped = Locked<[Int]>([])
        let (queries, send) = Signal<Int?>.pipe()
        let machine = Property(
            initial: nil,
            reduce: { query, new in query = new },
            feedbacks: Feedback(queries),
            Feedback(skippingRepeated: { $0 }) { query in
                Self.endless(started: started, stopped: stopped, query: query).map { $0 as Int? }
            })
        #expect(started.value.isEmpty)
        send.send(7)
        send.send(nil)
        #expect(started.value == [7])
        #expect(stopped.value == [7])
        withExtendedLifetime(machine) {}
    }

    @Test func outsideInputsFeedEventsInTheOrderSent() {
        let (letters, sendLetter) = Signal<String>.pipe()
        let (digits, sendDigit) = Signal<String>.pipe()
        let machine = Property(
            initial: "",
            reduce: { text, character in text += character },
            feedbacks: Feedback(letters), Feedback(digits))
        let recorder = machine.record()
        sendLetter.send("a")
        sendDigit.send("1")
        sendLetter.send("b")
        recorder.assertValues(["", "a", "a1", "a1b"])
    }

    /// RxFeedback's plain feedback: a trigger from outside reads the state it finds.
    @Test func aFeedbackMadeOfTheStatesReadsTheStateAtEachTrigger() {
        let (taps, tap) = Signal<Void>.pipe()
        let machine = Property(
            initial: 1,
            reduce: { page, next in page = next },
            feedbacks: Feedback { states in
                taps.withLatest(from: states) { _, page in page }.filter { $0 < 3 }.map { $0 + 1 }
            })
        let recorder = machine.record()
        tap.send()
        tap.send()
        tap.send()
        recorder.assertValues([1, 2, 3])
    }

    @Test func theStateIsGlitchFreeWithWhatDerivesFromIt() {
        let (steps, send) = Signal<Int>.pipe()
        let machine = Property(initial: 0, reduce: { total, step in total += step }, feedbacks: Feedback(steps))
        let pairs = Property.combineLatest(machine, machine.map { $0 * 2 })
        let recorder = pairs.record()
        send.send(1)
        send.send(2)
        #expect(recorder.values.map { [$0.0, $0.1] } == [[0, 0], [1, 2], [3, 6]])
    }

    @Test func freeingTheMachineStopsItsEffectsAndReleasesEverything() {
        let started = Locked<[Int]>([])
        let stopped = Locked<[Int]>([])
        let tracker = ReleaseTracker()
        let (queries, send) = Signal<Int>.pipe()
        var machine: Property<Int>?
        do {
            let witness = Witness()
            tracker.track(witness, "what the reducer and the effects capture")
            machine = Property(
                initial: 0,
                reduce: { query, new in
                    _ = witness
                    query = new
                },
                feedbacks: Feedback(queries),
                Feedback(
                    skippingRepeated: { query in
                        _ = witness
                        return query
                    },
                    effects: { query in
                        _ = witness
                        return Self.endless(started: started, stopped: stopped, query: query)
                    }))
        }
        tracker.track(machine!, "state")
        send.send(1)
        #expect(started.value == [0, 1])
        #expect(stopped.value == [0])
        machine = nil
        #expect(stopped.value == [0, 1])
        tracker.assertAllReleased()
        send.send(2)
        #expect(started.value == [0, 1])
    }

    @Test func anObserverAloneKeepsTheMachineRunningUntilItLeaves() {
        let started = Locked<[Int]>([])
        let stopped = Locked<[Int]>([])
        let seen = Locked<[Int]>([])
        let tracker = ReleaseTracker()
        let (queries, send) = Signal<Int>.pipe()
        let observation: Disposable
        do {
            let machine = Property(
                initial: 0,
                reduce: { query, new in query = new },
                feedbacks: Feedback(queries),
                Feedback(skippingRepeated: { $0 }) { query in
                    Self.endless(started: started, stopped: stopped, query: query)
                })
            tracker.track(machine, "state")
            observation = machine.observe { seen.append($0) }
        }
        send.send(1)
        #expect(seen.value == [0, 1])
        #expect(started.value == [0, 1])
        observation.dispose()
        #expect(stopped.value == [0, 1])
        tracker.assertAllReleased()
    }

    @Test func eventsFromOtherThreadsAreEachReducedOnceInTurn() {
        let (steps, send) = Signal<Int>.pipe()
        let started = Locked(0)
        let machine = Property(
            initial: 0,
            reduce: { total, step in total += step },
            feedbacks: Feedback(steps),
            Feedback(skippingRepeated: { $0 / 100 }) { _ in
                Producer<Int, Never>.empty.on(started: { started.increment() })
            })
        let seen = Locked<[Int]>([])
        machine.observe { seen.append($0) }
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<250 { send.send(1) }
        }
        #expect(machine.value == 1000)
        #expect(seen.value == Array(0...1000))
        #expect(started.value == 11)
    }
}
