/// The line being typed, with the editing rules of readline's emacs mode and no terminal,
/// so every rule can be tested by applying keys.
///
/// It holds the text and cursor, walks the history (keeping the line being typed as a
/// draft), keeps a kill ring across lines, runs the Ctrl-R reverse search and completes
/// words with Tab. It never changes `history`: whoever submits a line adds it there.
public struct LineBuffer: Sendable {
    /// The text typed so far, one element per character (grapheme).
    public private(set) var text = LineText()
    /// Where the cursor is, as an index into `text` (from 0 to `text.count`).
    public private(set) var cursor = 0
    /// The history, oldest first. Setting it moves back to the line being typed.
    public var history: [String] {
        didSet {
            historyIndex = history.count
            draft = LineText()
        }
    }
    /// What was killed, for yanking back; kept from one line to the next.
    public private(set) var killRing = KillRing()
    /// The reverse search under way, if any.
    public private(set) var search: ReverseSearch?

    private var historyIndex: Int
    private var draft = LineText()
    private var lastSearchQuery: [Character] = []
    /// Set by a key that killed, so the next kill grows the same kill-ring entry.
    private var lastKeyKilled = false
    /// Where the text just yanked is and which kill-ring entry it was, for Alt-Y.
    private var lastYank: (range: Range<Int>, back: Int)?
    /// The candidates of an ambiguous Tab, listed by a second Tab.
    private var lastCompletions: [String]?

    /// A line holding `text`, the cursor at its end, with `history` (oldest first).
    public init(text: String = "", history: [String] = []) {
        self.text = LineText(text)
        cursor = self.text.count
        self.history = history
        historyIndex = history.count
    }

    /// The text as a string.
    public var line: String { String(text) }

    /// What a key did to the line.
    public enum Outcome: Equatable, Sendable {
        /// The line changed (or may have): show it again.
        case editing
        /// Enter: the line is done (the buffer is empty again).
        case submitted(String)
        /// Ctrl-C: the line was dropped (the buffer is empty again).
        case cancelled
        /// Ctrl-D on an empty line: no more input.
        case ended
        /// Ctrl-L: clear the screen, then show the line again.
        case clearScreen
        /// A second Tab: show these candidates under the line, then the line again.
        case listCompletions([String])
        /// The key could do nothing here (ring the bell, or not).
        case bell
    }

    /// What to show: `prompt` (or the search's prompt while searching), the text and the cursor.
    public func display(prompt: String) -> (prompt: String, text: LineText, cursor: Int) {
        if let search { return (search.prompt, search.text, search.cursor) }
        return (prompt, text, cursor)
    }

    /// Applies `key`. Tab asks `complete` for the candidates of the word before the cursor:
    /// it gets the text before the cursor and returns whole replacement words.
    public mutating func apply(_ key: Key, complete: (String) -> [String] = { _ in [] }) -> Outcome {
        let key = Self.normalized(key)
        if search != nil { return applySearching(key, complete: complete) }
        let killed = lastKeyKilled
        lastKeyKilled = false
        let yank = lastYank
        lastYank = nil
        let completions = lastCompletions
        lastCompletions = nil
        switch key {
        case .character(let character): insert([character])
        case .paste(let pasted): insert(pasted)
        case .enter: return submit()
        case .tab: return completeWord(complete, listing: completions)
        case .backspace:
            guard cursor > 0 else { return .bell }
            cursor -= 1
            text.remove(at: cursor)
        case .delete: return deleteForward()
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(text.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .up, .control("p"): return older()
        case .down, .control("n"): return newer()
        case .wordLeft, .alt("b"): cursor = wordStart(before: cursor)
        case .wordRight, .alt("f"): cursor = wordEnd(after: cursor)
        case .control("k"): kill(cursor..<text.count, .forward, appending: killed)
        case .control("u"): kill(0..<cursor, .backward, appending: killed)
        case .control("w"): kill(spaceDelimitedWordStart(before: cursor)..<cursor, .backward, appending: killed)
        case .alt("d"): kill(cursor..<wordEnd(after: cursor), .forward, appending: killed)
        case .altBackspace: kill(wordStart(before: cursor)..<cursor, .backward, appending: killed)
        case .control("y"): return yankLatest()
        case .alt("y"): return yankOlder(after: yank)
        case .control("t"): return transpose()
        case .control("d"): return text.isEmpty ? .ended : deleteForward()
        case .control("c"):
            finish()
            return .cancelled
        case .control("l"): return .clearScreen
        case .control("r"): search = ReverseSearch(text: text, cursor: cursor)
        default: return .bell
        }
        return .editing
    }

    /// Alt with an uppercase letter acts as with the lowercase one.
    private static func normalized(_ key: Key) -> Key {
        if case .alt(let character) = key { return .alt(Character(character.lowercased())) }
        return key
    }

    // MARK: - Editing

    /// Inserts at the cursor, as one edit however long; a character that combines with the
    /// one before it (an accent, a joiner, the second half of a flag) joins it.
    private mutating func insert(_ characters: some Collection<Character>) {
        guard !characters.isEmpty else { return }
        // An ASCII character starts a character of its own: it joins nothing before it.
        guard cursor > 0, characters.first?.unicodeScalars.first?.isASCII == false else {
            let inserted = Array(String(characters))
            text.insert(contentsOf: inserted, at: cursor)
            cursor += inserted.count
            return
        }
        // Taken with the character before the cursor, the text is split into characters
        // again, so what joins it (or joins within the insert) becomes one character.
        var joined = String(text[cursor - 1])
        joined.append(contentsOf: String(characters))
        let inserted = Array(joined)
        text.replaceSubrange((cursor - 1)..<cursor, with: inserted)
        cursor += inserted.count - 1
    }

    private mutating func deleteForward() -> Outcome {
        guard cursor < text.count else { return .bell }
        text.remove(at: cursor)
        return .editing
    }

    /// Ctrl-T: swaps the characters before and under the cursor (the last two at the end).
    private mutating func transpose() -> Outcome {
        guard cursor > 0, text.count >= 2 else { return .bell }
        if cursor == text.count { cursor -= 1 }
        text.replaceSubrange((cursor - 1)..<(cursor + 1), with: [text[cursor], text[cursor - 1]])
        cursor += 1
        return .editing
    }

    private mutating func submit() -> Outcome {
        let submitted = line
        finish()
        return .submitted(submitted)
    }

    /// Empties the line and goes back to the end of the history.
    private mutating func finish() {
        text = LineText()
        cursor = 0
        draft = LineText()
        historyIndex = history.count
    }

    // MARK: - Words

    /// Letters and digits make words, as in readline; everything else separates them.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// Where the word before `index` starts (Alt-B): back over separators, then the word.
    private func wordStart(before index: Int) -> Int {
        var start = index
        while start > 0 && !Self.isWordCharacter(text[start - 1]) { start -= 1 }
        while start > 0 && Self.isWordCharacter(text[start - 1]) { start -= 1 }
        return start
    }

    /// Where the word after `index` ends (Alt-F): on over separators, then the word.
    private func wordEnd(after index: Int) -> Int {
        var end = index
        while end < text.count && !Self.isWordCharacter(text[end]) { end += 1 }
        while end < text.count && Self.isWordCharacter(text[end]) { end += 1 }
        return end
    }

    /// Where Ctrl-W's word starts: back over spaces, then to the previous space.
    private func spaceDelimitedWordStart(before index: Int) -> Int {
        var start = index
        while start > 0 && text[start - 1].isWhitespace { start -= 1 }
        while start > 0 && !text[start - 1].isWhitespace { start -= 1 }
        return start
    }

    // MARK: - Kill ring

    private mutating func kill(_ range: Range<Int>, _ direction: KillRing.Direction, appending: Bool) {
        killRing.kill(text.string(in: range), direction, appending: appending)
        text.removeSubrange(range)
        cursor = range.lowerBound
        lastKeyKilled = true
    }

    /// Ctrl-Y: inserts the newest kill.
    private mutating func yankLatest() -> Outcome {
        guard let latest = killRing.latest else { return .bell }
        let start = cursor
        text.insert(contentsOf: latest, at: cursor)
        cursor += latest.count
        lastYank = (start..<cursor, 0)
        return .editing
    }

    /// Alt-Y right after a yank: swaps the text yanked for the kill before it.
    private mutating func yankOlder(after yank: (range: Range<Int>, back: Int)?) -> Outcome {
        guard let yank, let older = killRing.entry(back: yank.back + 1) else { return .bell }
        text.replaceSubrange(yank.range, with: older)
        cursor = yank.range.lowerBound + older.count
        lastYank = (yank.range.lowerBound..<cursor, yank.back + 1)
        return .editing
    }

    // MARK: - History

    /// Up or Ctrl-P: the previous entry, keeping the line being typed as the draft.
    private mutating func older() -> Outcome {
        guard historyIndex > 0 else { return .bell }
        if historyIndex == history.count { draft = text }
        historyIndex -= 1
        text = LineText(history[historyIndex])
        cursor = text.count
        return .editing
    }

    /// Down or Ctrl-N: the next entry, and after the newest the draft.
    private mutating func newer() -> Outcome {
        guard historyIndex < history.count else { return .bell }
        historyIndex += 1
        text = historyIndex == history.count ? draft : LineText(history[historyIndex])
        cursor = text.count
        return .editing
    }

    // MARK: - Reverse search

    private mutating func applySearching(_ key: Key, complete: (String) -> [String]) -> Outcome {
        guard var search else { return .editing }
        switch key {
        case .character(let character): search.type(character, in: history)
        case .paste(let pasted): search.type(contentsOf: pasted, in: history)
        case .backspace: search.deleteBackward(in: history)
        case .control("r"): search.findOlder(in: history, previousQuery: lastSearchQuery)
        case .control("c"):
            endSearch(search, accepting: false)
            return .editing
        case .escape, .control("g"):
            endSearch(search, accepting: true)
            return .editing
        default:
            // Enter, a motion or any other key: the match becomes the line, then the key acts on it.
            endSearch(search, accepting: true)
            return apply(key, complete: complete)
        }
        self.search = search
        return .editing
    }

    /// Ends the search; when `accepting`, the entry shown becomes the line, and the history
    /// walk goes on from it.
    private mutating func endSearch(_ ended: ReverseSearch, accepting: Bool) {
        search = nil
        if !ended.query.isEmpty { lastSearchQuery = ended.query }
        guard accepting else { return }
        if let match = ended.match {
            if historyIndex == history.count { draft = text }
            historyIndex = match
        }
        text = ended.text
        cursor = ended.cursor
    }

    // MARK: - Completion

    /// Tab: completes the word before the cursor from `complete`'s candidates. One candidate
    /// replaces the word and adds a space; several put in their longest common prefix, and
    /// a second Tab lists them (`listing` holds the first Tab's candidates).
    private mutating func completeWord(_ complete: (String) -> [String], listing: [String]?) -> Outcome {
        if let listing {
            lastCompletions = listing
            return .listCompletions(listing)
        }
        var candidates: [String] = []
        for candidate in complete(text.string(in: 0..<cursor)) where !candidates.contains(candidate) {
            candidates.append(candidate)
        }
        var start = cursor
        while start > 0 && !text[start - 1].isWhitespace { start -= 1 }
        let word = text.characters(in: start..<cursor)
        guard let first = candidates.first else { return .bell }
        if candidates.count == 1 {
            let spaced = cursor < text.count && text[cursor] == " "
            replace(start..<cursor, with: Array(first))
            if spaced { cursor += 1 } else { insert([" "]) }
            return .editing
        }
        lastCompletions = candidates
        let prefix = candidates.dropFirst().reduce(Array(first)) { prefix, candidate in
            Array(zip(prefix, candidate).prefix { $0 == $1 }.map(\.0))
        }
        guard prefix.count > word.count || (prefix.count == word.count && !prefix.elementsEqual(word)) else {
            return .bell
        }
        replace(start..<cursor, with: prefix)
        return .editing
    }

    private mutating func replace(_ range: Range<Int>, with characters: some Collection<Character>) {
        text.replaceSubrange(range, with: characters)
        cursor = range.lowerBound + characters.count
    }
}
