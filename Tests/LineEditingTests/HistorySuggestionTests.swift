import LineEditing
import Testing

@Suite struct HistorySuggestionTests {
    /// The suggestion for `text` worked out from scratch: the newest entry whose UTF-8
    /// starts with the line's, the match ending between two of its characters.
    static func expected(_ text: String, _ history: [String]) -> String {
        guard !text.isEmpty else { return "" }
        for entry in history.reversed()
        where entry.utf8.starts(with: text.utf8) && entry.utf8.count > text.utf8.count {
            guard let start = entry.utf8.index(entry.startIndex, offsetBy: text.utf8.count).samePosition(in: entry)
            else { continue }
            return String(entry[start...])
        }
        return ""
    }

    @Test func theNewestEntryStartingWithTheLineIsFoundKeyByKey() {
        let history = ["list rent", "open 3", "list resale", "list", "open 12"]
        var suggestions = HistorySuggestion(history: history)
        var text = LineText()
        for (character, expected) in zip("list rx", ["ist", "st", "t", " resale", "resale", "esale", ""]) {
            text.append(character)
            suggestions.update(to: text)
            #expect(suggestions.suggestion == expected, "after \(String(text).debugDescription)")
        }
        // Backspace gives back what the shorter line matched.
        text.removeLast()
        suggestions.update(to: text)
        #expect(suggestions.suggestion == "esale")
        // A change at the start narrows again from there.
        text = LineText("open 1")
        suggestions.update(to: text)
        #expect(suggestions.suggestion == "2")
    }

    /// Random edits anywhere in the line always agree with a search from scratch.
    @Test func editsAnywhereAgreeWithASearchFromScratch() {
        let history = ["ab", "abc", "abd", "ba", "abcab", "é", "e\u{301}x", "aé", "a"]
        var suggestions = HistorySuggestion(history: history)
        var text = LineText()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet: [Character] = ["a", "b", "c", "d", "é", "\u{301}", "x"]
        for _ in 0..<2_000 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let position = text.isEmpty ? 0 : Int(state % UInt64(text.count + 1))
            if state % 3 == 0, !text.isEmpty {
                text.remove(at: min(position, text.count - 1))
            } else if text.count < 6 {
                text.insert(alphabet[Int((state >> 20) % UInt64(alphabet.count))], at: position)
            } else {
                text = LineText()
            }
            // A combining mark inserted joins the character before it, as the buffer does.
            text = LineText(String(text))
            suggestions.update(to: text)
            #expect(
                suggestions.suggestion == Self.expected(String(text), history), "for \(String(text).debugDescription)")
        }
    }

    @Test func anAccentTypedAfterAnEDoesNotSplitAnEntrysCharacter() {
        var suggestions = HistorySuggestion(history: ["e\u{301}t\u{E9}"])
        suggestions.update(to: LineText("e"))
        #expect(suggestions.suggestion == "", "the entry's first character is é, not e")
        suggestions.update(to: LineText("e\u{301}"))
        #expect(suggestions.suggestion == "t\u{E9}")
    }

    /// Typing on past every entry reads nothing: the sets stop at the longest entry.
    @Test func aLineLongerThanEveryEntryGetsNone() {
        var suggestions = HistorySuggestion(history: ["abc"])
        var text = LineText()
        for character in "abcdefgh" {
            text.append(character)
            suggestions.update(to: text)
        }
        #expect(suggestions.suggestion == "")
        text = LineText("ab")
        suggestions.update(to: text)
        #expect(suggestions.suggestion == "c")
    }
}
