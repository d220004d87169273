/// An incremental reverse search through the history, as Ctrl-R starts it in readline.
///
/// Typing refines the query: a longer query can only match where the shorter one did, so
/// the search goes on back from the match shown and never looks again at what it passed
/// (a failed search stays failed without looking at all). Ctrl-R again finds the next
/// older entry that matches; Backspace goes back to what the shorter query showed. The
/// entry shown is in `text`, with `cursor` at the start of the match. Case is ignored
/// unless the query holds a capital (smart case, as in fish and less; ASCII letters are
/// folded, others compared as they are).
///
/// Each entry is searched as UTF-8 in time linear in its length and the query's (Knuth-
/// Morris-Pratt, backwards), so a long paste into the query costs one pass over the
/// history.
public struct ReverseSearch: Sendable, Equatable {
    /// What is searched for.
    public private(set) var query: [Character] = []
    /// The index in the history of the entry shown, nil while none has matched.
    public private(set) var match: Int?
    /// True when the last search found nothing (the last match stays shown).
    public private(set) var failed = false
    /// The line shown: the matching entry, or the line the search started from.
    public private(set) var text: LineText
    /// Where the cursor is in `text`: at the start of the match.
    public private(set) var cursor: Int
    /// The line and cursor before the search, given back when it is cancelled.
    public let original: (text: LineText, cursor: Int)

    /// What the search showed before each extension of the query, for Backspace.
    private var earlier: [Shown] = []

    private struct Shown: Sendable {
        let query: [Character]
        let match: Int?
        let failed: Bool
        let text: LineText
        let cursor: Int
    }

    /// A search starting from the line being edited.
    public init(text: LineText, cursor: Int) {
        self.text = text
        self.cursor = cursor
        original = (text, cursor)
    }

    /// What the prompt becomes while searching.
    public var prompt: String {
        (failed ? "(failed reverse-i-search)`" : "(reverse-i-search)`") + String(query) + "': "
    }

    /// Whether case counts: only when the query holds a capital.
    public var isCaseSensitive: Bool { query.contains { $0.isUppercase } }

    /// Adds `character` to the query and looks again from the match shown, back.
    public mutating func type(_ character: Character, in history: [String]) {
        type(contentsOf: [character], in: history)
    }

    /// Adds `characters` (typed or pasted) to the query as one step, and looks again from
    /// the match shown, back.
    public mutating func type(contentsOf characters: some Collection<Character>, in history: [String]) {
        guard !characters.isEmpty else { return }
        earlier.append(Shown(query: query, match: match, failed: failed, text: text, cursor: cursor))
        query.append(contentsOf: characters)
        // What the shorter query did not find, the longer one cannot.
        guard !failed else { return }
        if let match {
            // In the entry shown, the longer query can only start where the shorter one did or before.
            search(in: history, from: match, endingBefore: cursor + query.count, skipping: nil)
        } else {
            search(in: history, from: history.count - 1, endingBefore: nil, skipping: nil)
        }
    }

    /// Removes the last character of the query and shows what the shorter query showed.
    public mutating func deleteBackward(in history: [String]) {
        guard !query.isEmpty else { return }
        if let shown = earlier.popLast() {
            (query, match, failed, text, cursor) = (shown.query, shown.match, shown.failed, shown.text, shown.cursor)
            return
        }
        query.removeLast()
        failed = false
        guard !query.isEmpty else {
            match = nil
            (text, cursor) = original
            return
        }
        search(in: history, from: history.count - 1, endingBefore: nil, skipping: nil)
    }

    /// Finds the next older entry that matches (Ctrl-R again); with an empty query, searches
    /// for `previousQuery` (the last search's) first.
    public mutating func findOlder(in history: [String], previousQuery: [Character] = []) {
        if query.isEmpty {
            guard !previousQuery.isEmpty else { return }
            query = previousQuery
            search(in: history, from: history.count - 1, endingBefore: nil, skipping: nil)
            return
        }
        guard let match else {
            search(in: history, from: history.count - 1, endingBefore: nil, skipping: nil)
            return
        }
        search(in: history, from: match - 1, endingBefore: nil, skipping: history[match])
    }

    /// Looks from `start` back for an entry holding the query (other than `skipping`, so
    /// repeats of one line are passed over); in the entry at `start`, only for an
    /// occurrence ending before character `endingBefore` when given.
    private mutating func search(in history: [String], from start: Int, endingBefore: Int?, skipping: String?) {
        let caseSensitive = isCaseSensitive
        let pattern = Array(String(query).utf8).map { Self.fold($0, caseSensitive: caseSensitive) }
        let table = Self.failureTable(pattern)
        var index = min(start, history.count - 1)
        while index >= 0 {
            var entry = history[index]
            // A query longer than the entry cannot be in it: no need to read it.
            if entry != skipping && pattern.count <= entry.utf8.count {
                var end = entry.utf8.count
                if index == start, let endingBefore {
                    let characterEnd =
                        entry.index(
                            entry.startIndex, offsetBy: max(0, endingBefore - query.count),
                            limitedBy: entry.endIndex) ?? entry.endIndex
                    end = min(end, entry.utf8.distance(from: entry.startIndex, to: characterEnd) + pattern.count)
                }
                let found = entry.withUTF8 { bytes in
                    Self.lastOffset(of: pattern, table: table, in: bytes, before: end, caseSensitive: caseSensitive)
                }
                if let found {
                    let matchStart = entry.utf8.index(entry.startIndex, offsetBy: found)
                    match = index
                    text = LineText(entry)
                    cursor = entry.distance(from: entry.startIndex, to: matchStart)
                    failed = false
                    return
                }
            }
            index -= 1
        }
        failed = true
    }

    /// Where the last occurrence of `pattern` (already folded) ending by byte `end` of
    /// `text` starts, in bytes: Knuth-Morris-Pratt run backwards, so the pattern's failure
    /// table is of its reverse.
    private static func lastOffset(
        of pattern: [UInt8], table: [Int], in text: UnsafeBufferPointer<UInt8>, before end: Int, caseSensitive: Bool
    ) -> Int? {
        guard !pattern.isEmpty else { return end }
        guard pattern.count <= end else { return nil }
        let last = pattern.count - 1
        var matched = 0
        var index = end - 1
        while index >= 0 {
            let byte = fold(text[index], caseSensitive: caseSensitive)
            while matched > 0 && pattern[last - matched] != byte { matched = table[matched - 1] }
            if pattern[last - matched] == byte { matched += 1 }
            if matched == pattern.count { return index }
            index -= 1
        }
        return nil
    }

    /// The failure table of `pattern` read backwards: for each length of a suffix, the
    /// longest proper suffix of it that is also a prefix of the reversed pattern.
    private static func failureTable(_ pattern: [UInt8]) -> [Int] {
        let count = pattern.count
        guard count > 0 else { return [] }
        var table = [Int](repeating: 0, count: count)
        var length = 0
        var index = 1
        while index < count {
            if pattern[count - 1 - index] == pattern[count - 1 - length] {
                length += 1
                table[index] = length
                index += 1
            } else if length > 0 {
                length = table[length - 1]
            } else {
                index += 1
            }
        }
        return table
    }

    /// A byte of UTF-8 as compared: an ASCII capital lowercased unless case counts (other
    /// letters are compared as they are).
    private static func fold(_ byte: UInt8, caseSensitive: Bool) -> UInt8 {
        !caseSensitive && byte >= 65 && byte <= 90 ? byte + 32 : byte
    }

    /// Two searches are equal when they show the same thing in the same state.
    public static func == (lhs: ReverseSearch, rhs: ReverseSearch) -> Bool {
        lhs.query == rhs.query && lhs.match == rhs.match && lhs.failed == rhs.failed && lhs.text == rhs.text
            && lhs.cursor == rhs.cursor && lhs.original.text == rhs.original.text
            && lhs.original.cursor == rhs.original.cursor
    }
}
