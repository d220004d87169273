import Signals
import SignalsTesting
import Testing

/// Timelines with tokens of any length and failures (issue 30, point 3).
@Suite struct MarbleTokenTests {
    enum Offline: Error, Equatable {
        case offline
        case timedOut
    }

    @Test func aTokenOfSeveralCharactersFallsOnTheFrameItBeginsAt() {
        let scheduler = TestScheduler()
        let (names, name) = Signal<String>.pipe()
        let recorder = names.record(on: scheduler)
        scheduler.drive(name, with: "e---u1----u2|", values: ["e": "", "u1": "ann", "u2": "anna"])
        scheduler.run()
        #expect(recorder.values == ["", "ann", "anna"])
        #expect(recorder.timedEvents.map(\.time) == [.zero, .seconds(4), .seconds(10), .seconds(12)])
        recorder.assertMarbles("e---u1----u2|", values: ["e": "", "u1": "ann", "u2": "anna"])
    }

    /// RxExample's timelines line up by column; a single-character output under a
    /// multi-character input keeps its frame.
    @Test func timelinesWrittenOneAboveTheOtherLineUpByColumn() {
        let scheduler = TestScheduler()
        let (names, name) = Signal<String>.pipe()
        let valid = names.map { $0.count >= 4 }.record(on: scheduler)
        scheduler.drive(name, with: "u1---u2----u3", values: ["u1": "an", "u2": "anna", "u3": "annabel"])
        scheduler.run()
        valid.assertMarbles("f----v-----v", values: ["f": false, "v": true])
    }

    @Test func theLongestTokenThatFitsIsRead() {
        let scheduler = TestScheduler()
        let (numbers, number) = Signal<Int>.pipe()
        let recorder = numbers.record(on: scheduler)
        scheduler.drive(number, with: "u12-u1-(u1u12)-u2", values: ["u1": 1, "u12": 12, "u2": 2])
        scheduler.run()
        #expect(recorder.values == [12, 1, 1, 12, 2])
        #expect(recorder.timedEvents.map(\.time) == [0, 4, 7, 7, 9].map { .seconds($0) })
    }

    @Test func singleCharacterDiagramsReadAsBefore() {
        let scheduler = TestScheduler()
        let (letters, letter) = Signal<String>.pipe()
        let recorder = letters.record(on: scheduler)
        scheduler.drive(letter, with: "ab-(cd)e|")
        scheduler.run()
        #expect(recorder.timedEvents.map(\.time) == [0, 1, 3, 3, 4, 5].map { .seconds($0) })
        recorder.assertMarbles("ab-(cd)e|")
    }

    @Test func tablesKeyedByCharactersStillWork() {
        let scheduler = TestScheduler()
        let (numbers, number) = Signal<Int>.pipe()
        let property = MutableProperty(0)
        let recorder = numbers.record(on: scheduler)
        let changes = property.signal.record(on: scheduler)
        let table: [Character: Int] = ["a": 1, "b": 2]
        scheduler.drive(number, with: "a-b|", values: table)
        scheduler.drive(property, with: "-ab", values: table)
        scheduler.run()
        recorder.assertMarbles("a-b|", values: table)
        changes.assertMarbles("-ab", values: table)
        var error: String?
        #expect(MarbleDiagram(parsing: "ab", values: table, error: &error).events.count == 2)
        #expect(error == nil)
    }

    @Test func aProducerRunPlaysItsTimelineFromTheTimeItStarts() {
        let scheduler = TestScheduler()
        let request = Producer<Int, Offline>(
            marbles: "-a-#", values: ["a": 1], failures: ["#": .offline], on: scheduler)
        scheduler.advance(by: .seconds(2))
        let run = request.record(on: scheduler)
        scheduler.run()
        #expect(run.events == [.value(.success(1)), .value(.failure(.offline)), .completed])
        #expect(run.timedEvents.map(\.time) == [3, 5, 5].map { .seconds($0) })
        let again = request.record(on: scheduler)
        scheduler.run()
        #expect(again.timedEvents.map(\.time) == [6, 8, 8].map { .seconds($0) })
    }

    @Test func aRecordedFailureIsItsToken() {
        let scheduler = TestScheduler()
        let run = Producer<String, Offline>(marbles: "-ab-#1", failures: ["#1": .timedOut], on: scheduler)
            .record(on: scheduler)
        scheduler.run()
        run.assertMarbles("-ab-#1", failures: ["#1": .timedOut])
        withKnownIssue {
            run.assertMarbles("-ab-#2", failures: ["#1": .timedOut, "#2": .offline])
        } matching: { issue in
            String(describing: issue).contains("actual: -ab-#1")
        }
    }

    @Test func aRunWhoseTimelineHasNoEndGoesOnUntilDisposed() {
        let scheduler = TestScheduler()
        let run = Producer<Int, Never>(marbles: "-a", values: ["a": 1], on: scheduler).record(on: scheduler)
        scheduler.run()
        run.assertMarbles("-a", values: ["a": 1])
        #expect(!run.isCompleted)
    }

    /// RxExample's mocks answer each subscription with the next timeline ("-#|-#|--r"):
    /// a retry test reads as its attempts.
    @Test func eachRunPlaysTheNextTimelineAndTheLastRepeats() {
        let scheduler = TestScheduler()
        let search = Producer<String, Offline>(
            marbles: ["-#", "--#1", "-(r|)"], values: ["r": "Loft"], failures: ["#": .offline, "#1": .timedOut],
            on: scheduler)
        let retried = search.retry(upTo: 2).record(on: scheduler)
        scheduler.run()
        // Fails at 1, again two frames later at 3, then answers a frame later at 4.
        retried.assertMarbles("----(r|)", values: ["r": "Loft"])
        // Started at 4, the fourth and fifth runs play the last timeline: answered at 5.
        let fourth = search.record(on: scheduler)
        let fifth = search.record(on: scheduler)
        scheduler.run()
        fourth.assertMarbles("-----(r|)", values: ["r": "Loft"])
        fifth.assertMarbles("-----(r|)", values: ["r": "Loft"])
    }

    @Test func noTimelineIsAFailedTestAndRunsThatSendNothing() {
        let scheduler = TestScheduler()
        withKnownIssue {
            let run = Producer<Int, Never>(marbles: [String](), on: scheduler).record(on: scheduler)
            scheduler.run()
            #expect(run.events.isEmpty)
        } matching: { issue in
            String(describing: issue).contains("no timeline to play")
        }
    }

    @Test func aRunThatSucceedsIsAssertedWithItsValues() {
        let scheduler = TestScheduler()
        let run = Producer<Int, Offline>(marbles: "--(r|)", values: ["r": 7], on: scheduler).record(on: scheduler)
        scheduler.run()
        run.assertMarbles("--(r|)", values: ["r": 7])
    }

    @Test func disposingARunCancelsWhatItHasNotSent() {
        let scheduler = TestScheduler()
        let run = Producer<Int, Never>(marbles: "a--b|", values: ["a": 1, "b": 2], on: scheduler)
            .record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(!run.isCompleted)
        run.stop()
        #expect(!scheduler.hasPendingActions)
        scheduler.run()
        run.assertMarbles("a", values: ["a": 1])
    }

    @Test func badTimelinesAreReportedNotCrashed() {
        let scheduler = TestScheduler()
        let (_, input) = Signal<Int>.pipe()
        withKnownIssue {
            scheduler.drive(input, with: "u1--u3", values: ["u1": 1, "u2": 2])
        } matching: { issue in
            String(describing: issue).contains("no value for 'u3' in marble diagram \"u1--u3\" (its tokens: u1, u2)")
        }
        withKnownIssue {
            scheduler.drive(input, with: "a-b", values: ["a-b": 1])
        } matching: { issue in
            String(describing: issue).contains("the token \"a-b\" cannot be read")
        }
        withKnownIssue {
            scheduler.drive(input, with: "-", values: ["": 1])
        } matching: { issue in
            String(describing: issue).contains("the token \"\" cannot be read")
        }
        withKnownIssue {
            scheduler.drive(input, with: "a)", values: ["a": 1])
        } matching: { issue in
            String(describing: issue).contains("')' without '('")
        }
        withKnownIssue {
            scheduler.drive(input, with: "((a))", values: ["a": 1])
        } matching: { issue in
            String(describing: issue).contains("nested '('")
        }
        #expect(!scheduler.hasPendingActions)
        withKnownIssue {
            let request = Producer<Int, Offline>(
                marbles: "-#", values: ["#": 1], failures: ["#": .offline], on: scheduler)
            let run = request.record(on: scheduler)
            scheduler.run()
            #expect(run.events.isEmpty)
        } matching: { issue in
            String(describing: issue).contains("the token \"#\" is both a value and a failure")
        }
        let recorder = Signal<Int>.never.record(on: scheduler)
        withKnownIssue {
            recorder.assertMarbles("-x-", values: ["a": 1])
        } matching: { issue in
            String(describing: issue).contains("no value for 'x'")
        }
    }
}
