import Foundation
import Signals

/// Marble diagrams: a timeline written as text, where each column is one frame.
///
/// - `-` a frame with no event;
/// - `|` the completion;
/// - a token: a value, looked up in the `values` table, or for a ``Signals/Producer`` a
///   failure, looked up in the `failures` table (by convention `#`). A token may have any
///   length (`u1`, `#1`); where several keys fit, the longest is read. A character no key
///   fits is a one-character token: with string values it stands for itself;
/// - `(u1u2)` several events in one frame;
/// - spaces are ignored.
///
/// A token of several characters takes as many frames as it has characters, its event
/// on the first, so timelines written one above the other line up column by column
/// (as RxTest's do); a group takes one frame however wide it is, so that events can
/// follow it in the next frame. A failure ends the run: it stands for the failure and
/// the completion, in its frame.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let (queries, query) = Signal<String>.pipe()
/// let recorder = queries.debounce(.seconds(2), on: scheduler).record(on: scheduler)
/// scheduler.drive(query, with: "ab---c|")
/// scheduler.run()
/// recorder.assertMarbles("---b--(c|)")
/// ```
public struct MarbleDiagram<Value> {
    /// The events of the diagram with the frame each falls on.
    public let events: [(frame: Int, event: RecordedEvent<Value>)]

    /// Parses `diagram` into its events and their frames.
    ///
    /// - Parameters:
    ///   - diagram: The timeline, one column per frame.
    ///   - values: The value of each token; with strings, a character that begins no
    ///     token stands for itself.
    ///   - error: Set to what is wrong when the diagram has unbalanced groups or unknown
    ///     tokens; the events may then be incomplete. Left as it was otherwise.
    public init(parsing diagram: String, values: [String: Value], error: inout String?) {
        self.init(
            parsing: diagram, tokens: values.mapValues { [.value($0)] },
            standingForItself: { String($0) as? Value }, error: &error)
    }

    /// Parses `diagram` with a table keyed by characters, as before tokens had any
    /// length: the same as keying it by one-character strings.
    ///
    /// - Parameters:
    ///   - diagram: The timeline, one column per frame.
    ///   - values: The value of each value character; with strings, a character missing
    ///     from the table stands for itself.
    ///   - error: Set to what is wrong when the diagram has unbalanced groups or unknown
    ///     values; the events may then be incomplete. Left as it was otherwise.
    @_disfavoredOverload
    public init(parsing diagram: String, values: [Character: Value], error: inout String?) {
        self.init(parsing: diagram, values: values.keyedByString, error: &error)
    }

    /// Parses `diagram` with the events each token stands for.
    init(
        parsing diagram: String,
        tokens: [String: [RecordedEvent<Value>]],
        standingForItself: (Character) -> Value?,
        error: inout String?
    ) {
        let markers: Set<Character> = ["-", "|", "(", ")"]
        var firstError: String?
        func fail(_ message: String) {
            if firstError == nil { firstError = message }
        }
        let keys = tokens.keys.sorted().filter { key in
            if key.isEmpty || key.contains(where: { markers.contains($0) || $0 == " " }) {
                fail("the token \"\(key)\" cannot be read: a token has no '-', '|', '(', ')' or space")
                return false
            }
            return true
        }
        // Longest first, so that "u12" is not read as "u1" then "2".
        let candidates = keys.map(Array.init).sorted { $0.count > $1.count }
        let text = Array(diagram.filter { $0 != " " })
        var events: [(frame: Int, event: RecordedEvent<Value>)] = []
        var frame = 0
        var inGroup = false
        var index = 0
        while index < text.count {
            var width = 1
            switch text[index] {
            case "(":
                if inGroup { fail("nested '(' in marble diagram \"\(diagram)\"") }
                inGroup = true
                index += 1
                continue
            case ")":
                if !inGroup { fail("')' without '(' in marble diagram \"\(diagram)\"") }
                inGroup = false
                index += 1
                frame += 1
                continue
            case "-":
                break
            case "|":
                events.append((frame, .completed))
            default:
                if let key = candidates.first(where: { text[index...].starts(with: $0) }) {
                    events += (tokens[String(key)] ?? []).map { (frame, $0) }
                    width = key.count
                } else if let value = standingForItself(text[index]) {
                    events.append((frame, .value(value)))
                } else {
                    let run = text[index...].prefix { !markers.contains($0) }
                    let known = keys.isEmpty ? "" : " (its tokens: \(keys.joined(separator: ", ")))"
                    fail("no value for '\(String(run))' in marble diagram \"\(diagram)\"\(known)")
                    width = run.count
                }
            }
            index += width
            if !inGroup { frame += width }
        }
        if inGroup { fail("unclosed '(' in marble diagram \"\(diagram)\"") }
        if let firstError { error = firstError }
        self.events = events
    }
}

extension MarbleDiagram {
    /// Parses `diagram`, the timeline of a ``Signals/Producer`` run, into its events and
    /// their frames.
    ///
    /// A failure token stands for the `.failure` result and the completion, in its frame,
    /// as a recorded run has them.
    ///
    /// - Parameters:
    ///   - diagram: The timeline, one column per frame.
    ///   - values: The value of each value token; with strings, a character that begins
    ///     no token stands for itself.
    ///   - failures: The failure of each failure token, such as `["#": .offline]`.
    ///   - error: Set to what is wrong when the diagram has unbalanced groups, unknown
    ///     tokens or a token in both tables. Left as it was otherwise.
    public init<Success, Failure>(
        parsing diagram: String,
        values: [String: Success],
        failures: [String: Failure],
        error: inout String?
    ) where Value == Result<Success, Failure> {
        var tokens = values.mapValues { [RecordedEvent<Value>.value(.success($0))] }
        for (key, failure) in failures {
            if tokens[key] != nil { error = "the token \"\(key)\" is both a value and a failure" }
            tokens[key] = [.value(.failure(failure)), .completed]
        }
        self.init(
            parsing: diagram, tokens: tokens,
            standingForItself: { (String($0) as? Success).map { .success($0) } }, error: &error)
    }
}

extension TestScheduler {
    /// Schedules the events of `diagram` on `input`, one frame every `frame`, starting now.
    ///
    /// Fails the test if the diagram cannot be parsed.
    ///
    /// ```swift
    /// scheduler.drive(username, with: "e---u1----u2|", values: ["e": "", "u1": "ann", "u2": "anna"])
    /// ```
    public func drive<Value: Sendable>(
        _ input: Signal<Value>.Input,
        with diagram: String,
        values: [String: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        var error: String?
        let marbles = MarbleDiagram(parsing: diagram, values: values, error: &error)
        if let error {
            return reportFailure(error, fileID: fileID, filePath: filePath, line: line, column: column)
        }
        for (position, event) in marbles.events {
            schedule(after: frame * position) {
                switch event {
                case .value(let value): input.send(value)
                case .completed: input.sendCompleted()
                }
            }
        }
    }

    /// Schedules the values of `diagram` as sets of `property`, one frame every `frame`.
    ///
    /// Fails the test if the diagram cannot be parsed.
    public func drive<Value: Sendable>(
        _ property: MutableProperty<Value>,
        with diagram: String,
        values: [String: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        var error: String?
        let marbles = MarbleDiagram(parsing: diagram, values: values, error: &error)
        if let error {
            return reportFailure(error, fileID: fileID, filePath: filePath, line: line, column: column)
        }
        for case (let position, .value(let value)) in marbles.events {
            schedule(after: frame * position) { [weak property] in property?.value = value }
        }
    }

    /// Schedules the events of `diagram` on `input`, with a table keyed by characters:
    /// the same as keying it by one-character strings.
    @_disfavoredOverload
    public func drive<Value: Sendable>(
        _ input: Signal<Value>.Input,
        with diagram: String,
        values: [Character: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        drive(
            input, with: diagram, values: values.keyedByString, frame: frame,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Schedules the values of `diagram` as sets of `property`, with a table keyed by
    /// characters: the same as keying it by one-character strings.
    @_disfavoredOverload
    public func drive<Value: Sendable>(
        _ property: MutableProperty<Value>,
        with diagram: String,
        values: [Character: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        drive(
            property, with: diagram, values: values.keyedByString, frame: frame,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension Producer {
    /// A producer whose every run plays `diagram` on `scheduler`, one frame every `frame`,
    /// counting from the time the run starts: a stand-in for a request in a test.
    ///
    /// Each run sends the values of its value tokens, fails at a failure token and
    /// completes at `|`, and goes on until it is disposed when the timeline has no end;
    /// disposing the run cancels what it has not sent yet. Fails the test (and makes runs
    /// that send nothing) if the diagram cannot be parsed.
    ///
    /// ```swift
    /// let search = Producer(marbles: "--(r|)", values: ["r": ["Loft"]], on: scheduler)
    /// let offline = Producer<[String], APIError>(marbles: "---#", failures: ["#": .offline], on: scheduler)
    /// ```
    public init(
        marbles diagram: String,
        values: [String: Value] = [:],
        failures: [String: Failure] = [:],
        frame: Duration = .seconds(1),
        on scheduler: TestScheduler,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        self.init(
            marbles: [diagram], values: values, failures: failures, frame: frame, on: scheduler,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A producer whose first run plays the first of `diagrams`, its second run the
    /// second, and so on, each run after the last playing the last again: a stand-in for a
    /// request that fails before it answers, for testing a retry.
    ///
    /// The timelines play as ``init(marbles:values:failures:frame:on:fileID:filePath:line:column:)``'s
    /// one does, each from the start of its run. The last one repeats, rather than later
    /// runs sending nothing, so that the one-timeline producer is this one with one
    /// element, and a stand-in keeps answering as it last did.
    ///
    /// ```swift
    /// // Two failed attempts, then the answer: RxExample's "-#|-#|--r".
    /// let search = Producer<[String], APIError>(
    ///     marbles: ["-#", "-#", "--(r|)"], values: ["r": ["Loft"]], failures: ["#": .offline], on: scheduler)
    /// ```
    public init(
        marbles diagrams: [String],
        values: [String: Value] = [:],
        failures: [String: Failure] = [:],
        frame: Duration = .seconds(1),
        on scheduler: TestScheduler,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let timelines = diagrams.map { diagram in
            var error: String?
            let marbles = MarbleDiagram(parsing: diagram, values: values, failures: failures, error: &error)
            if let error {
                reportFailure(error, fileID: fileID, filePath: filePath, line: line, column: column)
            }
            return error == nil ? marbles.events.map { ($0.frame, $0.event) } : []
        }
        if timelines.isEmpty {
            reportFailure("no timeline to play", fileID: fileID, filePath: filePath, line: line, column: column)
        }
        let runs = RunCounter()
        self.init { input in
            let events = timelines.isEmpty ? [] : timelines[min(runs.next(), timelines.count - 1)]
            let scheduled = events.map { position, event in
                scheduler.schedule(after: frame * position) {
                    switch event {
                    case .value(.success(let value)): input.send(value)
                    case .value(.failure(let failure)): input.send(failure: failure)
                    case .completed: input.sendCompleted()
                    }
                }
            }
            // Keeping `input` until the run ends: freeing it would complete the run.
            return AnyDisposable {
                withExtendedLifetime(input) {}
                for action in scheduled { action.dispose() }
            }
        }
    }

    /// Starts a run and records its values, its failure and its completion.
    ///
    /// The recorder holds the run's results: each value as `.success`, a failure as a last
    /// `.failure`, then the completion, which `assertMarbles(_:values:failures:frame:)`
    /// compares with a timeline. Freeing the recorder or calling `stop()` disposes the
    /// run.
    public func record(
        on scheduler: TestScheduler? = nil,
        exhaustive: Bool = false,
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Recorder<Result<Value, Failure>> {
        signal().record(
            on: scheduler, exhaustive: exhaustive, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension Recorder where Value: Equatable {
    /// Checks the recorded timeline against `diagram`, counting frames from time zero.
    ///
    /// The recorder must have been made with `record(on:)` on a `TestScheduler`. A failure
    /// prints both timelines as marbles, then the events side by side.
    public func assertMarbles(
        _ diagram: String,
        values: [String: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        var error: String?
        let expected = MarbleDiagram(parsing: diagram, values: values, error: &error)
        check(
            expected, diagram, error, frame: frame,
            symbol: { value in
                if let key = values.filter({ $0.value == value }).keys.min() { return key }
                if let text = value as? String, text.count == 1 { return text }
                return "?"
            },
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Checks the recorded timeline against `diagram`, with a table keyed by characters:
    /// the same as keying it by one-character strings.
    @_disfavoredOverload
    public func assertMarbles(
        _ diagram: String,
        values: [Character: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        assertMarbles(
            diagram, values: values.keyedByString, frame: frame,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Compares the recorded timeline with `expected`, reporting `error` or the difference.
    fileprivate func check(
        _ expected: MarbleDiagram<Value>, _ diagram: String, _ error: String?,
        frame: Duration, symbol: (Value) -> String, isFailure: (Value) -> Bool = { _ in false },
        fileID: String, filePath: StaticString, line: UInt, column: UInt
    ) {
        if let error {
            return reportFailure(error, fileID: fileID, filePath: filePath, line: line, column: column)
        }
        guard scheduler != nil else {
            return reportFailure(
                "assertMarbles needs a recorder made with record(on: TestScheduler)",
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
        let actual = timedEvents.map { entry -> (frame: Int?, event: RecordedEvent<Value>) in
            (entry.time.flatMap { frameIndex(of: $0, frame: frame) }, entry.event)
        }
        let same =
            expected.events.count == actual.count
            && zip(expected.events, actual).allSatisfy {
                $0.frame == $1.frame && $0.event == $1.event
            }
        guard !same else { return }
        let rendered = render(actual, symbol: symbol, isFailure: isFailure)
        let rows = EventDiff.describe(
            title: "events",
            expected: expected.events.map { $0.event },
            actual: actual.map { $0.event }
        )
        let frames =
            "frames: expected \(expected.events.map { String($0.frame) }) actual "
            + "\(actual.map { $0.frame.map(String.init) ?? "?" })"
        reportFailure(
            "Marbles differ:\n  expected: \(diagram)\n    actual: \(rendered)\n\(frames)\n\(rows)",
            fileID: fileID, filePath: filePath, line: line, column: column
        )
    }

    private func frameIndex(of time: Duration, frame: Duration) -> Int? {
        let ratio = time / frame
        let rounded = ratio.rounded()
        return abs(ratio - rounded) < 1e-9 ? Int(rounded) : nil
    }

    /// The events as a timeline, each token as wide as it is written.
    private func render(
        _ events: [(frame: Int?, event: RecordedEvent<Value>)], symbol: (Value) -> String,
        isFailure: (Value) -> Bool
    ) -> String {
        // The completion that follows a failure in its frame is part of the failure token.
        var shown: [(frame: Int?, token: String)] = []
        for (index, entry) in events.enumerated() {
            switch entry.event {
            case .value(let value): shown.append((entry.frame, symbol(value)))
            case .completed:
                let previous = index > 0 ? events[index - 1] : nil
                if let previous, previous.frame == entry.frame, case .value(let value) = previous.event,
                    isFailure(value)
                {
                    continue
                }
                shown.append((entry.frame, "|"))
            }
        }
        guard !shown.contains(where: { $0.frame == nil }) else {
            return shown.map(\.token).joined() + " (some events fall between frames)"
        }
        var text = ""
        var column = 0
        var index = 0
        while index < shown.count {
            let frame = shown[index].frame!
            let here = shown[index...].prefix { $0.frame == frame }.map(\.token)
            index += here.count
            text += String(repeating: "-", count: max(0, frame - column))
            column = max(column, frame)
            if here.count == 1 {
                text += here[0]
                column += here[0].count
            } else {
                text += "(" + here.joined() + ")"
                column += 1
            }
        }
        return text
    }

}

extension Recorder {
    /// Checks the recorded ``Signals/Producer`` run against `diagram`, counting frames from
    /// time zero: its values under their tokens in `values`, and its failure, with the
    /// completion that follows it, under its token in `failures`.
    ///
    /// ```swift
    /// let run = Producer<Int, APIError>(marbles: "-a-#", values: ["a": 1], failures: ["#": .offline], on: scheduler)
    ///     .record(on: scheduler)
    /// scheduler.run()
    /// run.assertMarbles("-a-#", values: ["a": 1], failures: ["#": .offline])
    /// ```
    ///
    /// The recorder must have been made with `record(on:)` on a `TestScheduler`. A failure
    /// prints both timelines as marbles, then the events side by side.
    public func assertMarbles<Success: Equatable, Failure: Equatable>(
        _ diagram: String,
        values: [String: Success] = [:],
        failures: [String: Failure] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) where Value == Result<Success, Failure> {
        var error: String?
        let expected = MarbleDiagram(parsing: diagram, values: values, failures: failures, error: &error)
        check(
            expected, diagram, error, frame: frame,
            symbol: { result in
                switch result {
                case .success(let value):
                    if let key = values.filter({ $0.value == value }).keys.min() { return key }
                    if let text = value as? String, text.count == 1 { return text }
                    return "?"
                case .failure(let failure):
                    return failures.filter({ $0.value == failure }).keys.min() ?? "#?"
                }
            },
            isFailure: { if case .failure = $0 { true } else { false } },
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

extension Dictionary where Key == Character {
    /// The same table keyed by one-character strings.
    fileprivate var keyedByString: [String: Value] {
        [String: Value](uniqueKeysWithValues: map { (String($0.key), $0.value) })
    }
}

/// Counts the runs of a marble producer, which may start from any thread.
// Safe to share: `count` is touched only under `lock`.
private final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The number of the run starting now, from 0.
    func next() -> Int {
        lock.locked {
            defer { count += 1 }
            return count
        }
    }
}
