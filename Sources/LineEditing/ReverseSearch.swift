/// An incremental reverse search through the history, as Ctrl-R starts it in readline.
///
/// Typing refines the query (the entry shown stays while it still matches), Ctrl-R again
/// finds the next older entry that matches, Backspace shortens the query. The entry shown
/// is in `text`, with `cursor` at the start of the match.
public struct ReverseSearch: Sendable, Equatable {
    /// What is searched for.
    public private(set) var query: [Character] = []
    /// The index in the history of the entry shown, nil while none has matched.
    public private(set) var match: Int?
    /// True when the last search found nothing (the last match stays shown).
    public private(set) var failed = false
    /// The line shown: the matching entry, or the line the search started from.
    public private(set) var text: [Character]
    /// Where the cursor is in `text`: at the start of the match.
    public private(set) var cursor: Int
    /// The line and cursor before the search, given back when it is cancelled.
    public let original: (text: [Character], cursor: Int)

    /// A search starting from the line being edited.
    public init(text: [Character], cursor: Int) {
        self.text = text
        self.cursor = cursor
        original = (text, cursor)
    }

    /// What the prompt becomes while searching.
    public var prompt: String {
        (failed ? "(failed reverse-i-search)`" : "(reverse-i-search)`") + String(query) + "': "
    }

    /// Adds `character` to the query and looks again from the entry shown, back.
    public mutating func type(_ character: Character, in history: [String]) {
        query.append(character)
        search(in: history, from: match ?? history.count - 1, skipping: nil)
    }

    /// Removes the last character of the query and looks again from the newest entry.
    public mutating func deleteBackward(in history: [String]) {
        guard !query.isEmpty else { return }
        query.removeLast()
        failed = false
        guard !query.isEmpty else {
            match = nil
            (text, cursor) = original
            return
        }
        search(in: history, from: history.count - 1, skipping: nil)
    }

    /// Finds the next older entry that matches (Ctrl-R again); with an empty query, searches
    /// for `previousQuery` (the last search's) first.
    public mutating func findOlder(in history: [String], previousQuery: [Character] = []) {
        if query.isEmpty {
            guard !previousQuery.isEmpty else { return }
            query = previousQuery
            search(in: history, from: history.count - 1, skipping: nil)
            return
        }
        guard let match else {
            search(in: history, from: history.count - 1, skipping: nil)
            return
        }
        search(in: history, from: match - 1, skipping: history[match])
    }

    /// Looks from `start` back for an entry holding the query (other than `skipping`, so
    /// repeats of one line are passed over).
    private mutating func search(in history: [String], from start: Int, skipping: String?) {
        var index = min(start, history.count - 1)
        while index >= 0 {
            let entry = history[index]
            if entry != skipping, let offset = Self.lastOffset(of: query, in: Array(entry)) {
                match = index
                text = Array(entry)
                cursor = offset
                failed = false
                return
            }
            index -= 1
        }
        failed = true
    }

    /// Where the last occurrence of `query` starts in `text`.
    static func lastOffset(of query: [Character], in text: [Character]) -> Int? {
        guard query.count <= text.count else { return nil }
        var start = text.count - query.count
        while start >= 0 {
            if text[start..<(start + query.count)].elementsEqual(query) { return start }
            start -= 1
        }
        return nil
    }

    /// Two searches are equal when they show the same thing in the same state.
    public static func == (lhs: ReverseSearch, rhs: ReverseSearch) -> Bool {
        lhs.query == rhs.query && lhs.match == rhs.match && lhs.failed == rhs.failed && lhs.text == rhs.text
            && lhs.cursor == rhs.cursor && lhs.original.text == rhs.original.text
            && lhs.original.cursor == rhs.original.cursor
    }
}
