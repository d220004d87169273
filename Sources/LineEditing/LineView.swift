/// Draws editor view models on a terminal, writing only what changed since the one drawn
/// before: the escape sequences and characters to write, as one string per change.
///
/// It remembers where each character of the line it drew ended on the screen (rows and
/// columns from the prompt's first row, in display columns), so a change is drawn from its
/// first changed character on: the cursor moves there, the screen is erased from there
/// down, and the rest is written again. Typing at the end of a line of any length writes
/// the character typed; moving the cursor writes a cursor motion. A new prompt (a search
/// started or refined) or a new width draws everything again.
///
/// Rows are broken by the view itself (a line break between them), so a wide character
/// that does not fit at the end of a row moves whole to the next one, as `LineLayout`
/// lays it out; when the last row is full, the cursor goes to the start of one more.
public final class LineView {
    /// A place on the screen, from the prompt's first row and the first column.
    struct Position: Equatable {
        var row: Int
        var column: Int
    }

    private let width: () -> Int
    /// Whether styles are drawn (colours); without them, every part is plain.
    public var colors: Bool

    private var drawn: EditorViewModel?
    private var drawnWidth = 0
    /// Where the prompt ended.
    private var promptEnd = Position(row: 0, column: 0)
    /// Where each character of the line, then of the suggestion, ended (before any wrap).
    private var ends: [Position] = []
    /// Where the terminal's cursor is.
    private var at = Position(row: 0, column: 0)

    /// A view for a terminal `width()` columns wide (asked at each change), drawing styles
    /// when `colors`.
    public init(colors: Bool = false, width: @escaping () -> Int) {
        self.colors = colors
        self.width = width
    }

    /// What to write to show `model`, given that the terminal shows what was drawn before
    /// (or, the first time, that its cursor is at the start of an empty row).
    public func render(_ model: EditorViewModel) -> String {
        let width = max(1, self.width())
        let model =
            colors
            ? model
            : EditorViewModel(
                prompt: model.prompt, text: model.text, cursor: model.cursor, search: model.search, status: model.status
            )
        var output = ""
        var from: Int?
        var typed: Range<Int>?
        if let drawn, drawn.prompt == model.prompt, (drawn.status == nil) == (model.status == nil),
            width == drawnWidth
        {
            if let status = model.status, status != drawn.status {
                // Only the status row changed (the spinner, the seconds): write it alone.
                let fitted = Self.fitted(status, width: width)
                output += move(to: Position(row: 0, column: 0)) + "\u{1B}[K" + fitted
                at = Position(row: 0, column: LineLayout.pieces(of: fitted).reduce(0) { $0 + $1.columns })
            }
            from = Self.firstChange(from: drawn, to: model)
            typed = Self.typedOverSuggestion(from: drawn, to: model)
        } else {
            // Everything again, from the prompt's row.
            if drawn != nil && at.row > 0 { output += "\u{1B}[\(at.row)A" }
            output += "\r\u{1B}[J"
            var top = 0
            if let status = model.status {
                // One row, cut to fit: the line's rows are counted from it.
                output += Self.fitted(status, width: width) + "\r\n"
                top = 1
            }
            output += model.prompt
            promptEnd = Self.end(of: model.prompt, width: width)
            promptEnd.row += top
            at = promptEnd
            if at.column >= width {
                output += "\r\n"
                at = Position(row: at.row + 1, column: 0)
            }
            ends = []
            drawnWidth = width
            from = 0
        }
        if let from {
            if let typed, from == typed.lowerBound {
                // Only the characters typed changed style: the rest of the suggestion stays.
                output += draw(model, from: from, upTo: typed.upperBound, width: width)
            } else {
                output += draw(model, from: from, upTo: nil, width: width)
            }
        }
        output += move(to: position(of: model.cursor, in: model, width: width))
        drawn = model
        return output
    }

    /// What to write to leave `model` on the screen as it is to stay (no suggestion, no
    /// colours, the cursor after the line) and go to the start of the row below; the next
    /// `render` draws afresh there.
    public func finish(_ model: EditorViewModel) -> String {
        // No status either: its row goes, the line stays.
        let final = EditorViewModel(prompt: model.prompt, text: model.text, cursor: model.text.count)
        var output = render(final)
        // After a full last row the cursor is already at the start of a row of its own.
        if !(at.column == 0 && at.row > 0) { output += "\r\n" }
        forget()
        return output
    }

    /// Whether a view model is on the screen (drawn and not forgotten since).
    public var isDrawn: Bool { drawn != nil }

    /// What to write to erase what was drawn and go to the start of its first row, where
    /// the next `render` draws everything again.
    public func clear() -> String {
        guard isDrawn else { return "" }
        let output = (at.row > 0 ? "\u{1B}[\(at.row)A" : "") + "\r\u{1B}[J"
        forget()
        return output
    }

    /// Forgets what was drawn: the next `render` draws everything from the cursor's row
    /// (after the screen was cleared, or something was written below the line).
    public func forget() {
        drawn = nil
        ends = []
        at = Position(row: 0, column: 0)
    }

    // MARK: - Drawing

    /// Where the first change from `old` to `new` is, as an index into the line followed
    /// by the suggestion; nil when only the cursor moved.
    static func firstChange(from old: EditorViewModel, to new: EditorViewModel) -> Int? {
        var first = new.text.firstDifference(from: old.text)
        if old.suggestion != new.suggestion {
            first = min(first ?? Int.max, min(old.text.count, new.text.count))
        }
        if old.spans != new.spans {
            // Before the first span only one of them has, every character is styled alike.
            let changed = old.spans.filter { !new.spans.contains($0) } + new.spans.filter { !old.spans.contains($0) }
            if let start = changed.map(\.range.lowerBound).min() { first = min(first ?? Int.max, start) }
        }
        return first
    }

    /// The characters typed when `new` is `old` with the start of its suggestion typed
    /// (the same characters on the screen, the typed ones no longer dim), nil otherwise.
    static func typedOverSuggestion(from old: EditorViewModel, to new: EditorViewModel) -> Range<Int>? {
        guard new.text.count > old.text.count else { return nil }
        let typed = old.text.count..<new.text.count
        guard old.spans == new.spans, old.suggestion.utf8.count > new.suggestion.utf8.count,
            new.text.firstDifference(from: old.text) == old.text.count
        else { return nil }
        let characters = new.text.string(in: typed)
        guard old.suggestion.utf8.count == characters.utf8.count + new.suggestion.utf8.count,
            old.suggestion.utf8.starts(with: characters.utf8),
            old.suggestion.utf8.reversed().starts(with: new.suggestion.utf8.reversed())
        else { return nil }
        return typed
    }

    /// Draws the line from index `from` on (and the suggestion after it), erasing what was
    /// there, and records where each character ends; with `upTo`, only the characters
    /// before it, over the same characters already there (nothing is erased).
    private func draw(_ model: EditorViewModel, from: Int, upTo: Int?, width: Int) -> String {
        let keep = min(from, ends.count)
        var position = keep == 0 ? promptEnd : ends[keep - 1]
        if position.column >= width { position = Position(row: position.row + 1, column: 0) }
        var output = move(to: position) + (upTo == nil ? "\u{1B}[J" : "")
        // Drawn over the same characters, their ends stay; else they are recorded anew.
        if upTo == nil { ends.removeSubrange(keep...) }
        var style = TextStyle.plain
        var spans = model.spans.drop { $0.range.upperBound <= keep }
        var characters = model.text.makeIterator(from: keep)
        var suggestion = model.suggestion.dropFirst(max(0, keep - model.text.count)).makeIterator()
        var index = keep
        let total = upTo ?? Int.max
        while index < total {
            let character: Character
            var wanted = TextStyle.plain
            if index < model.text.count {
                guard let next = characters.next() else { break }
                character = next
                while let span = spans.first, span.range.upperBound <= index { spans.removeFirst() }
                if let span = spans.first, span.range.contains(index) { wanted = span.style }
            } else {
                guard let next = suggestion.next() else { break }
                character = next
                wanted = .suggestion
            }
            if wanted != style {
                output += wanted == .plain ? TextStyle.plain.sequence : TextStyle.plain.sequence + wanted.sequence
                style = wanted
            }
            let columns = DisplayWidth.of(character)
            if position.column + max(columns, 1) > width && position.column > 0 {
                output += "\r\n"
                position = Position(row: position.row + 1, column: 0)
            }
            output.append(character)
            position.column += columns
            if index < ends.count { ends[index] = position } else { ends.append(position) }
            index += 1
        }
        if style != .plain { output += TextStyle.plain.sequence }
        at = position
        if at.column >= width {
            // Off the end of a full row: onto the next one, so the cursor is where it shows.
            output += "\r\n"
            at = Position(row: at.row + 1, column: 0)
        }
        return output
    }

    /// Where the cursor shows when it is before character `index` of the line (followed by
    /// the suggestion), or after the last.
    private func position(of index: Int, in model: EditorViewModel, width: Int) -> Position {
        let index = min(max(0, index), ends.count)
        var position = index == 0 ? promptEnd : ends[index - 1]
        let next: Character? =
            index < model.text.count
            ? model.text[index]
            : index == model.text.count ? model.suggestion.first : nil
        let columns = next.map { max(DisplayWidth.of($0), 1) } ?? 1
        if position.column >= width || (next != nil && position.column + columns > width && position.column > 0) {
            position = Position(row: position.row + 1, column: 0)
        }
        return position
    }

    /// Moves the terminal's cursor from where it is to `target`.
    private func move(to target: Position) -> String {
        var output = ""
        if target.row < at.row { output += "\u{1B}[\(at.row - target.row)A" }
        if target.row > at.row { output += "\u{1B}[\(target.row - at.row)B" }
        if target.column != at.column || target.row != at.row {
            output += "\r"
            if target.column > 0 { output += "\u{1B}[\(target.column)C" }
        }
        at = target
        return output
    }

    /// `text` cut to less than `width` columns (so it never wraps), escape sequences kept.
    static func fitted(_ text: String, width: Int) -> String {
        var output = ""
        var columns = 0
        for piece in LineLayout.pieces(of: text) {
            if columns + piece.columns >= width { break }
            output += piece.text
            columns += piece.columns
        }
        return output
    }

    /// Where `prompt` ends when written from the start of a row `width` columns wide
    /// (escape sequences in it take no column).
    static func end(of prompt: String, width: Int) -> Position {
        var position = Position(row: 0, column: 0)
        for piece in LineLayout.pieces(of: prompt) {
            if position.column + piece.columns > width && position.column > 0 {
                position = Position(row: position.row + 1, column: 0)
            }
            position.column += piece.columns
        }
        return position
    }
}
