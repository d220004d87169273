/// What the line editor shows, as a value: the prompt, the line with its cursor, the rest
/// of a line suggested after it, and the colours of its parts.
///
/// The editor derives one per change of its state and hands it to a `LineView`, which
/// writes only what differs from the one it drew before.
public struct EditorViewModel: Equatable, Sendable {
    /// The prompt, or the search's prompt while searching.
    public var prompt: String
    /// The line, or the history entry found while searching.
    public var text: LineText
    /// Where the cursor is in `text`, from 0 to `text.count`.
    public var cursor: Int
    /// Text shown dimmed after the line, that → accepts (empty for none).
    public var suggestion: String
    /// How parts of `text` are coloured, sorted and not overlapping.
    public var spans: [HighlightSpan]
    /// The reverse search under way (Ctrl-R), nil when none: `prompt` and `text` then show
    /// its query and the entry found.
    public var search: EditorSearch?
    /// What runs meanwhile (work in flight), shown on a row above the prompt; nil for none.
    public var status: String?

    /// A view model showing `text` after `prompt`.
    public init(
        prompt: String, text: LineText, cursor: Int, suggestion: String = "", spans: [HighlightSpan] = [],
        search: EditorSearch? = nil, status: String? = nil
    ) {
        self.status = status
        self.prompt = prompt
        self.text = text
        self.cursor = cursor
        self.suggestion = suggestion
        self.spans = spans
        self.search = search
    }
}

/// A reverse search as shown: what is searched for, whether it found it, and where.
public struct EditorSearch: Equatable, Sendable {
    /// What is searched for.
    public var query: String
    /// True when the last search found nothing (the last entry found stays shown).
    public var failed: Bool
    /// The characters of the shown entry that the query matched, nil when none did.
    public var match: Range<Int>?

    /// A search for `query`, `failed` or not, matching `match` of the entry shown.
    public init(query: String, failed: Bool, match: Range<Int>?) {
        self.query = query
        self.failed = failed
        self.match = match
    }
}

/// A run of the line shown in one style.
public struct HighlightSpan: Equatable, Sendable {
    /// The characters of the line it covers.
    public var range: Range<Int>
    /// How they are shown.
    public var style: TextStyle

    /// `range` shown in `style`.
    public init(_ range: Range<Int>, _ style: TextStyle) {
        self.range = range
        self.style = style
    }
}

/// How a part of the line is shown, on a terminal that shows colours.
public enum TextStyle: Equatable, Sendable {
    /// As typed.
    case plain
    /// The suggested rest of the line: dim.
    case suggestion
    /// A command the screen in front knows: green.
    case command
    /// A command it does not know: red.
    case unknownCommand
    /// A word the command will refuse (a number out of range, an unclosed quote): red, underlined.
    case problem
    /// What a reverse search matched in the entry shown: reversed.
    case match

    /// The escape sequence that starts this style (after a reset).
    var sequence: String {
        switch self {
        case .plain: "\u{1B}[0m"
        case .suggestion: "\u{1B}[2m"
        case .command: "\u{1B}[32m"
        case .unknownCommand: "\u{1B}[31m"
        case .problem: "\u{1B}[4;31m"
        case .match: "\u{1B}[7m"
        }
    }
}
