import LineEditing
import Testing

@Suite struct ReverseSearchTests {
    static let history = ["list rent", "filter rooms 2", "list new", "open 3", "list resale"]

    /// The prompt and the line, with `|` at the cursor, as the editor would show them.
    func display(_ buffer: LineBuffer) -> String {
        let display = buffer.display(prompt: "> ")
        return display.prompt + String(display.text[..<display.cursor]) + "|" + String(display.text[display.cursor...])
    }

    func searching(_ query: String, from text: String = "") -> LineBuffer {
        var buffer = LineBuffer(text: text, history: Self.history)
        press(.control("r"), on: &buffer)
        type(query, into: &buffer)
        return buffer
    }

    @Test func controlRShowsTheNewestMatch() {
        var buffer = LineBuffer(text: "draft", history: Self.history)
        press(.control("r"), on: &buffer)
        #expect(display(buffer) == "(reverse-i-search)`': draft|")
        type("li", into: &buffer)
        #expect(display(buffer) == "(reverse-i-search)`li': |list resale")
        #expect(buffer.search?.match == 4)
    }

    @Test func controlRAgainFindsTheNextOlderMatch() {
        var buffer = searching("li")
        press(.control("r"), on: &buffer)
        #expect(display(buffer) == "(reverse-i-search)`li': |list new")
        press(.control("r"), on: &buffer)
        #expect(display(buffer) == "(reverse-i-search)`li': |list rent")
        press(.control("r"), on: &buffer)
        #expect(display(buffer) == "(failed reverse-i-search)`li': |list rent", "the last match stays")
    }

    @Test func typingRefinesFromTheMatchShown() {
        var buffer = searching("r")
        #expect(display(buffer) == "(reverse-i-search)`r': list |resale")
        type("o", into: &buffer)
        #expect(display(buffer) == "(reverse-i-search)`ro': filter |rooms 2")
        type("x", into: &buffer)
        #expect(display(buffer) == "(failed reverse-i-search)`rox': filter |rooms 2")
        press(.backspace, on: &buffer)
        #expect(display(buffer) == "(reverse-i-search)`ro': filter |rooms 2")
        press(.backspace, .backspace, on: &buffer)
        #expect(display(buffer) == "(reverse-i-search)`': |", "an empty query shows the line searched from")
    }

    @Test func enterAcceptsAndSubmits() {
        var buffer = searching("ro")
        #expect(press(.enter, on: &buffer) == .submitted("filter rooms 2"))
        #expect(buffer.search == nil)
        #expect(buffer.text.isEmpty)
    }

    @Test(arguments: [Key.escape, .control("g")])
    func escapeOrControlGAcceptsWithoutSubmitting(key: Key) {
        var buffer = searching("new")
        #expect(press(key, on: &buffer) == .editing)
        #expect(buffer.search == nil)
        #expect(display(buffer) == "> list |new")
    }

    @Test func aMotionKeyAcceptsAndMoves() {
        var buffer = searching("new")
        press(.control("e"), on: &buffer)
        #expect(display(buffer) == "> list new|")
        var other = searching("open")
        press(.right, on: &other)
        #expect(display(other) == "> o|pen 3")
    }

    @Test func anEditingKeyAcceptsAndEdits() {
        var buffer = searching("open")
        press(.control("k"), on: &buffer)
        #expect(display(buffer) == "> |")
        #expect(buffer.killRing.latest == "open 3")
    }

    @Test func controlCCancelsTheSearchAndKeepsTheLine() {
        var buffer = searching("rooms", from: "my draft")
        #expect(press(.control("c"), on: &buffer) == .editing)
        #expect(buffer.search == nil)
        #expect(display(buffer) == "> my draft|")
    }

    @Test func theHistoryWalkGoesOnFromTheMatch() {
        var buffer = searching("new", from: "draft")
        press(.escape, .up, on: &buffer)
        #expect(buffer.line == "filter rooms 2")
        press(.down, times: 4, on: &buffer)
        #expect(buffer.line == "draft")
    }

    @Test func controlRTwiceSearchesForTheLastQueryAgain() {
        var buffer = searching("open")
        press(.escape, .control("u"), .control("r"), .control("r"), on: &buffer)
        #expect(display(buffer) == "(reverse-i-search)`open': |open 3")
    }

    @Test func repeatsOfOneLineAreFoundOnce() {
        var buffer = LineBuffer(history: ["list a", "list b", "ls", "list b"])
        press(.control("r"), on: &buffer)
        type("list", into: &buffer)
        #expect(buffer.search?.match == 3)
        press(.control("r"), on: &buffer)
        #expect(buffer.search?.match == 0)
    }
}

@Suite struct IncrementalSearchTests {
    @Test func caseIsIgnoredUnlessTheQueryHasACapital() {
        var buffer = LineBuffer(history: ["Open 3", "list New", "open 4"])
        press(.control("r"), on: &buffer)
        type("new", into: &buffer)
        #expect(buffer.search?.match == 1, "lowercase finds any case")
        press(.backspace, .backspace, .backspace, on: &buffer)
        type("Open", into: &buffer)
        #expect(buffer.search?.match == 0, "a capital makes case count")
        #expect(buffer.search?.isCaseSensitive == true)
    }

    @Test func aPasteIntoTheQueryIsOneStepAndBackspaceUndoesIt() {
        var buffer = LineBuffer(history: ["list rent", "filter rooms 2"])
        press(.control("r"), on: &buffer)
        type("l", into: &buffer)
        #expect(buffer.search?.match == 1)
        _ = buffer.apply(.paste("ist"))
        #expect(buffer.search?.match == 0 && buffer.search?.query == Array("list"))
        press(.backspace, on: &buffer)
        #expect(buffer.search?.query == Array("l") && buffer.search?.match == 1)
    }

    @Test func aFailedSearchStaysFailedWithoutLookingAgain() {
        var buffer = LineBuffer(history: ["abc"])
        press(.control("r"), on: &buffer)
        type("x", into: &buffer)
        #expect(buffer.search?.failed == true)
        type("abc", into: &buffer)
        #expect(buffer.search?.failed == true, "xabc cannot match where x did not")
    }

    @Test func aLongPasteOverLongEntriesTakesOnePass() {
        let entry = String(repeating: "ab", count: 2_000)
        var buffer = LineBuffer(history: Array(repeating: entry, count: 200) + ["x"])
        press(.control("r"), on: &buffer)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            _ = buffer.apply(.paste(String(repeating: "ab", count: 1_000) + "b"))
            _ = buffer.apply(.paste(String(repeating: "ab", count: 7_500)))
        }
        #expect(buffer.search?.failed == true)
        #expect(elapsed < .seconds(2), "took \(elapsed)")
        var found = LineBuffer(history: [entry + "z", "y"])
        press(.control("r"), on: &found)
        _ = found.apply(.paste(String(repeating: "ab", count: 1_500) + "z"))
        #expect(found.search?.match == 0 && found.search?.cursor == 1_000)
    }
}
