import Signals
import Synchronization

/// What the editor knows about the terminal and the screen in front: whether it shows
/// colours (and so suggestions), what Tab would offer for the text before the cursor, and
/// how the line is coloured.
public struct EditorScreen: Sendable {
    /// Whether styles and suggestions are shown: a colour terminal (never under `NO_COLOR`,
    /// `TERM=dumb`, or when output is not a terminal).
    public var colors: Bool
    /// The candidates Tab offers for the text before the cursor.
    public var completions: @Sendable (String) -> [String]
    /// How the line is coloured (spans sorted, not overlapping), asked after each key for
    /// lines of at most `highlightedLength` characters on a colour screen.
    public var highlight: @Sendable (String) -> [HighlightSpan]
    /// What runs meanwhile (work in flight), shown above the prompt; nil for nothing.
    public var status: String?

    /// The longest line coloured: a longer one (a paste, not a command) is shown plain, so
    /// a key never has the whole of a long line read again.
    public static let highlightedLength = 1_024

    /// A screen showing `colors`, whose Tab offers `completions` and whose lines are
    /// coloured by `highlight`.
    public init(
        colors: Bool = false, completions: @escaping @Sendable (String) -> [String] = { _ in [] },
        highlight: @escaping @Sendable (String) -> [HighlightSpan] = { _ in [] }
    ) {
        self.colors = colors
        self.completions = completions
        self.highlight = highlight
    }
}

/// The state the keys change: the line being edited and the prompt it is edited after.
public struct EditorState: Sendable {
    /// The line, its history, kill ring and search.
    public var buffer: LineBuffer
    /// The prompt shown while not searching.
    public var prompt: String
    /// The history entries that start with the line, kept from key to key.
    public var suggestions: HistorySuggestion
    /// The rest of the line suggested after it ("" for none): worked out by `settle(on:)`
    /// after each key, on a colour screen with the cursor at the end.
    public var suggestion = ""
    /// How the line is coloured, worked out by `settle(on:)` after each key.
    public var spans: [HighlightSpan] = []

    /// A line being edited after `prompt`.
    public init(buffer: LineBuffer = LineBuffer(), prompt: String) {
        self.buffer = buffer
        self.prompt = prompt
        suggestions = HistorySuggestion(history: buffer.history)
    }
}

/// The line editor's controller, in the framework's MVVM style: it turns keys into
/// changes of its state (a `MutableProperty`), derives the view model from that state and
/// the screen (`Property.combineLatest(...).map`), and owns the binding that hands each
/// new view model to the `LineView`. What the view writes is collected for the terminal.
///
/// Everything runs on the thread that sends the keys (the editor's reading thread):
/// Signals deliver on the sending thread, so a key's view model is drawn before `apply`
/// returns.
public final class LineEditorController {
    /// The line being edited.
    public let state: MutableProperty<EditorState>
    /// The terminal and the screen in front.
    public let screen: MutableProperty<EditorScreen>
    /// What the editor shows, derived from the state and the screen; it changes only when
    /// what is shown does.
    public let viewModel: Property<EditorViewModel>
    private let drawing: Drawing
    private let bag = DisposeBag()

    /// A controller editing after `prompt` with `history`, drawing at `width()` columns.
    public init(
        prompt: String, history: [String] = [], screen: EditorScreen = EditorScreen(),
        width: @escaping @Sendable () -> Int
    ) {
        state = MutableProperty(EditorState(buffer: LineBuffer(history: history), prompt: prompt))
        self.screen = MutableProperty(screen)
        viewModel = Property.combineLatest(state, self.screen).map { state, screen in
            EditorViewModel(state: state, screen: screen)
        }
        // The view model holds a suggestion and styles only on a colour screen.
        drawing = Drawing(LineView(colors: true, width: width))
        viewModel.observe { [drawing] model in drawing.render(model) }.dispose(in: bag)
    }

    /// Applies `key` (Tab asks the screen's completions); the view draws the change.
    ///
    /// With a suggestion shown, → or Ctrl-F takes all of it and Alt-F (Ctrl-Right) its next
    /// word; any other key types as usual.
    @discardableResult
    public func apply(_ key: Key) -> LineBuffer.Outcome {
        var next = state.value
        var key = key
        let suggestion = viewModel.value.suggestion
        if !suggestion.isEmpty {
            switch key {
            case .right, .control("f"): key = .paste(suggestion)
            case .alt("f"), .alt("F"), .wordRight: key = .paste(Self.firstWord(of: suggestion))
            default: break
            }
        }
        let outcome = next.buffer.apply(key, complete: screen.value.completions)
        next.settle(on: screen.value)
        state.value = next
        return outcome
    }

    /// The bytes the view wrote since the last call, for the terminal.
    public func takeOutput() -> String {
        drawing.take()
    }

    /// Adds `text` to the bytes for the terminal (something written around the line).
    public func write(_ text: String) {
        drawing.append(text)
    }

    /// Works the suggestion and the colours out again for the screen in front (after it
    /// changed: new completions, new numbers shown).
    public func refresh() {
        var next = state.value
        next.settle(on: screen.value)
        state.value = next
    }

    /// Leaves `model` on the screen as it is to stay and goes below it.
    public func finish(_ model: EditorViewModel) {
        drawing.finish(model)
    }

    /// The screen was cleared or written to: the next change draws everything again.
    public func forget() {
        drawing.forget()
    }

    /// Erases the rows the line is drawn on and goes to the first of them; the next change
    /// draws everything again there.
    public func clear() {
        drawing.clear()
    }

    /// The separators at the start of `text` and the word after them, as Alt-F moves over.
    static func firstWord(of text: String) -> String {
        let separators = text.prefix { !LineBuffer.isWordCharacter($0) }
        let word = text.dropFirst(separators.count).prefix { LineBuffer.isWordCharacter($0) }
        return String(separators + word)
    }

    /// Draws the view model again if the view forgot it (after `forget()` or `finish`).
    public func redraw() {
        drawing.drawIfForgotten(viewModel.value)
    }

    /// Starts a new line after `prompt` with `history`, keeping the kill ring, drawn
    /// afresh from the cursor's row.
    public func begin(prompt: String, history: [String]) {
        drawing.forget()
        _ = drawing.take()
        var next = state.value
        next.buffer.history = history
        next.prompt = prompt
        next.suggestions = HistorySuggestion(history: history)
        next.settle(on: screen.value)
        state.value = next
        // Drawn by the binding if the view model changed; else drawn here.
        drawing.drawIfForgotten(viewModel.value)
    }

    /// The view and what it wrote, behind a lock: the binding's closure is `@Sendable`,
    /// and the controller's methods may run on another thread than a late delivery.
    private final class Drawing: Sendable {
        private let locked: Mutex<(view: LineView, output: String)>

        init(_ view: sending LineView) {
            locked = Mutex((view, ""))
        }

        func render(_ model: EditorViewModel) {
            locked.withLock { $0.output += $0.view.render(model) }
        }

        func finish(_ model: EditorViewModel) {
            locked.withLock { $0.output += $0.view.finish(model) }
        }

        func forget() {
            locked.withLock { $0.view.forget() }
        }

        func clear() {
            locked.withLock { $0.output += $0.view.clear() }
        }

        func drawIfForgotten(_ model: EditorViewModel) {
            locked.withLock { if !$0.view.isDrawn { $0.output += $0.view.render(model) } }
        }

        func append(_ text: String) {
            locked.withLock { $0.output += text }
        }

        func take() -> String {
            locked.withLock { state in
                defer { state.output = "" }
                return state.output
            }
        }
    }
}

extension EditorState {
    /// Works out the suggestion and the colours for the line as it is now, on `screen`.
    public mutating func settle(on screen: EditorScreen) {
        suggest(on: screen)
        highlight(on: screen)
    }

    /// The longest word looked at for a completion suggested: longer ones get none, so
    /// a key never reads more of the line than this around its start and end.
    static let longestCompletedWord = 256

    /// Works out `suggestion`: the rest of the newest history entry that starts with
    /// the line or, failing that, of the first completion of its last word; only on a
    /// colour screen, not while searching, with the cursor at the end of a line.
    mutating func suggest(on screen: EditorScreen) {
        guard screen.colors, buffer.search == nil, !buffer.text.isEmpty, buffer.cursor == buffer.text.count else {
            suggestion = ""
            return
        }
        suggestions.update(to: buffer.text)
        let fromHistory = suggestions.suggestion
        suggestion = fromHistory.isEmpty ? Self.completionSuggestion(for: buffer.text, screen: screen) : fromHistory
    }

    /// Works out `spans`: the screen's colours for the line, on a colour screen, not
    /// while searching, for a line of at most `EditorScreen.highlightedLength` characters.
    mutating func highlight(on screen: EditorScreen) {
        let text = buffer.text
        guard screen.colors, buffer.search == nil, !text.isEmpty, text.count <= EditorScreen.highlightedLength
        else {
            spans = []
            return
        }
        spans = screen.highlight(String(text))
    }

    /// The rest of the first completion of the last word of `text`, "" for none.
    ///
    /// The completions are asked with a line of at most three words standing for `text`:
    /// its first word, the word before the last and the last (what a completer needs to
    /// know which command's arguments are typed), so a long line is not read whole.
    static func completionSuggestion(for text: LineText, screen: EditorScreen) -> String {
        let limit = longestCompletedWord
        func wordStart(before end: Int) -> Int? {
            var start = end
            while start > 0, text[start - 1] != " " {
                start -= 1
                if end - start > limit { return nil }
            }
            return start
        }
        guard let lastStart = wordStart(before: text.count), lastStart < text.count else { return "" }
        let word = text.string(in: lastStart..<text.count)
        var shortened = word
        if lastStart > 0 {
            let previousStart = wordStart(before: lastStart - 1) ?? max(0, lastStart - 1 - limit)
            let previous = text.string(in: previousStart..<(lastStart - 1))
            shortened = previous + " " + word
            if previousStart > 0 {
                var firstEnd = 0
                while firstEnd < min(previousStart - 1, limit), text[firstEnd] != " " { firstEnd += 1 }
                shortened = text.string(in: 0..<firstEnd) + " " + shortened
            }
        }
        for candidate in screen.completions(shortened) where candidate.count > word.count && candidate.hasPrefix(word) {
            return String(candidate.dropFirst(word.count))
        }
        return ""
    }
}

extension EditorViewModel {
    /// What `state` shows on `screen`: the search's prompt, query and match while
    /// searching (the match reversed on a colour terminal), else the prompt, the line and,
    /// on a colour terminal, its colours and (with the cursor at the end of the line) the
    /// suggested rest of it.
    public init(state: EditorState, screen: EditorScreen) {
        let display = state.buffer.display(prompt: state.prompt)
        self.init(prompt: display.prompt, text: display.text, cursor: display.cursor, status: screen.status)
        if let search = state.buffer.search {
            let found = search.match != nil && !search.failed && !search.query.isEmpty
            let match = found ? search.cursor..<min(search.text.count, search.cursor + search.query.count) : nil
            self.search = EditorSearch(query: String(search.query), failed: search.failed, match: match)
            if screen.colors, let match, !match.isEmpty { spans = [HighlightSpan(match, .match)] }
            return
        }
        guard screen.colors else { return }
        spans = state.spans
        if display.cursor == display.text.count { suggestion = state.suggestion }
    }
}
