import Signals

/// Marble diagrams: a timeline written as text, one character per frame.
///
/// - `-` a frame with no event;
/// - `|` the completion;
/// - `(ab)` several events in one frame;
/// - any other character: a value, looked up in the `values` table
///   (or, when the table has no entry and values are strings, the character itself);
/// - spaces are ignored.
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
    ///   - diagram: The timeline, one character per frame.
    ///   - values: The value of each value character; with strings, a character missing
    ///     from the table stands for itself.
    ///   - error: Set to what is wrong when the diagram has unbalanced groups or unknown
    ///     values; the events may then be incomplete. Left as it was otherwise.
    public init(parsing diagram: String, values: [Character: Value], error: inout String?) {
        var events: [(frame: Int, event: RecordedEvent<Value>)] = []
        var frame = 0
        var inGroup = false
        for character in diagram where character != " " {
            switch character {
            case "(":
                if inGroup { error = "nested '(' in marble diagram \"\(diagram)\"" }
                inGroup = true
                continue
            case ")":
                if !inGroup { error = "')' without '(' in marble diagram \"\(diagram)\"" }
                inGroup = false
            case "-":
                break
            case "|":
                events.append((frame, .completed))
            default:
                if let value = values[character] ?? (String(character) as? Value) {
                    events.append((frame, .value(value)))
                } else {
                    error = "no value for '\(character)' in marble diagram \"\(diagram)\""
                }
            }
            if !inGroup { frame += 1 }
        }
        if inGroup { error = "unclosed '(' in marble diagram \"\(diagram)\"" }
        self.events = events
    }
}

extension TestScheduler {
    /// Schedules the events of `diagram` on `input`, one frame every `frame`, starting now.
    ///
    /// Fails the test if the diagram cannot be parsed.
    public func drive<Value: Sendable>(
        _ input: Signal<Value>.Input,
        with diagram: String,
        values: [Character: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        guard let marbles = parsed(diagram, values, fileID, filePath, line, column) else { return }
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
    public func drive<Value: Sendable>(
        _ property: MutableProperty<Value>,
        with diagram: String,
        values: [Character: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        guard let marbles = parsed(diagram, values, fileID, filePath, line, column) else { return }
        for case (let position, .value(let value)) in marbles.events {
            schedule(after: frame * position) { [weak property] in property?.value = value }
        }
    }
}

extension TestScheduler {
    /// The diagram parsed, or nil after reporting why it cannot be.
    fileprivate func parsed<Value>(
        _ diagram: String, _ values: [Character: Value],
        _ fileID: String, _ filePath: StaticString, _ line: UInt, _ column: UInt
    ) -> MarbleDiagram<Value>? {
        var error: String?
        let marbles = MarbleDiagram(parsing: diagram, values: values, error: &error)
        if let error {
            reportFailure(error, fileID: fileID, filePath: filePath, line: line, column: column)
            return nil
        }
        return marbles
    }
}

extension Recorder where Value: Equatable {
    /// Checks the recorded timeline against `diagram`, counting frames from time zero.
    ///
    /// The recorder must have been made with `record(on:)` on a `TestScheduler`. A failure
    /// prints both timelines as marbles, then the events side by side.
    public func assertMarbles(
        _ diagram: String,
        values: [Character: Value] = [:],
        frame: Duration = .seconds(1),
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        var error: String?
        let expected = MarbleDiagram(parsing: diagram, values: values, error: &error)
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
        let rendered = render(actual, values: values)
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

    private func render(_ events: [(frame: Int?, event: RecordedEvent<Value>)], values: [Character: Value]) -> String {
        func symbol(_ event: RecordedEvent<Value>) -> String {
            switch event {
            case .completed: return "|"
            case .value(let value):
                if let key = values.first(where: { $0.value == value })?.key { return String(key) }
                if let text = value as? String, text.count == 1 { return text }
                return "?"
            }
        }
        guard !events.contains(where: { $0.frame == nil }) else {
            return events.map { symbol($0.event) }.joined() + " (some events fall between frames)"
        }
        let last = events.map { $0.frame! }.max() ?? -1
        var text = ""
        for frame in stride(from: 0, through: last, by: 1) {
            let here = events.filter { $0.frame == frame }.map { symbol($0.event) }
            switch here.count {
            case 0: text += "-"
            case 1: text += here[0]
            default: text += "(" + here.joined() + ")"
            }
        }
        return text
    }
}
