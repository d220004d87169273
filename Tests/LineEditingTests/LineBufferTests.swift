import LineEditing
import Testing

/// Types `text` one key per character.
func type(_ text: String, into buffer: inout LineBuffer) {
    for character in text { _ = buffer.apply(.character(character)) }
}

/// Applies `keys` one after another; the outcome of the last.
@discardableResult
func press(
    _ keys: Key..., times: Int = 1, on buffer: inout LineBuffer,
    complete: (String) -> [String] = { _ in [] }
) -> LineBuffer.Outcome {
    var outcome = LineBuffer.Outcome.editing
    for _ in 0..<times {
        for key in keys { outcome = buffer.apply(key, complete: complete) }
    }
    return outcome
}

/// The line with a `|` where the cursor is.
func shown(_ buffer: LineBuffer) -> String {
    String(buffer.text[..<buffer.cursor]) + "|" + String(buffer.text[buffer.cursor...])
}

@Suite struct LineBufferTests {
    @Test func typingMovingAndDeleting() {
        var buffer = LineBuffer()
        type("lst new", into: &buffer)
        press(.left, times: 6, on: &buffer)
        _ = buffer.apply(.character("i"))
        #expect(shown(buffer) == "li|st new")
        press(.end, .backspace, .home, .delete, on: &buffer)
        #expect(shown(buffer) == "|ist ne")
        #expect(buffer.apply(.enter) == .submitted("ist ne"))
        #expect(buffer.text.isEmpty && buffer.cursor == 0)
    }

    @Test func emacsControlKeysMoveLikeTheArrows() {
        var buffer = LineBuffer(text: "abcd")
        press(.control("a"), on: &buffer)
        #expect(shown(buffer) == "|abcd")
        press(.control("f"), .control("f"), on: &buffer)
        #expect(shown(buffer) == "ab|cd")
        press(.control("b"), on: &buffer)
        #expect(shown(buffer) == "a|bcd")
        press(.control("e"), on: &buffer)
        #expect(shown(buffer) == "abcd|")
        #expect(press(.right, on: &buffer) == .editing)
        #expect(shown(buffer) == "abcd|", "the cursor stops at the end")
        #expect(press(.backspace, .home, .backspace, on: &buffer) == .bell, "nothing to erase at the start")
        #expect(shown(buffer) == "|abc")
    }

    @Test func wordMotionsSkipPunctuation() {
        var buffer = LineBuffer(text: "go homes://listing/detail?id=4  now")
        press(.alt("b"), on: &buffer)
        #expect(shown(buffer) == "go homes://listing/detail?id=4  |now")
        press(.alt("b"), on: &buffer)
        #expect(shown(buffer) == "go homes://listing/detail?id=|4  now")
        press(.wordLeft, .wordLeft, on: &buffer)
        #expect(shown(buffer) == "go homes://listing/|detail?id=4  now")
        press(.home, .alt("f"), on: &buffer)
        #expect(shown(buffer) == "go| homes://listing/detail?id=4  now")
        press(.alt("F"), .wordRight, on: &buffer)
        #expect(shown(buffer) == "go homes://listing|/detail?id=4  now", "Alt-Shift-F and Ctrl-Right move by word too")
        press(.end, .alt("f"), on: &buffer)
        #expect(shown(buffer) == "go homes://listing/detail?id=4  now|")
        press(.home, .alt("b"), on: &buffer)
        #expect(shown(buffer) == "|go homes://listing/detail?id=4  now")
    }

    @Test func wordsAreLettersAndDigitsOfAnyScript() {
        var buffer = LineBuffer(text: "找 静安2室 apt")
        press(.wordLeft, .wordLeft, on: &buffer)
        #expect(shown(buffer) == "找 |静安2室 apt")
    }

    @Test func controlDDeletesUnderTheCursorOrEndsAnEmptyLine() {
        var buffer = LineBuffer(text: "abc")
        press(.home, on: &buffer)
        #expect(press(.control("d"), on: &buffer) == .editing)
        #expect(shown(buffer) == "|bc")
        press(.end, on: &buffer)
        #expect(press(.control("d"), on: &buffer) == .bell, "at the end of a line it does nothing")
        #expect(buffer.line == "bc")
        press(.control("u"), on: &buffer)
        #expect(press(.control("d"), on: &buffer) == .ended)
    }

    @Test func controlCDropsTheLine() {
        var buffer = LineBuffer()
        type("abc", into: &buffer)
        #expect(press(.control("c"), on: &buffer) == .cancelled)
        #expect(buffer.text.isEmpty)
        #expect(press(.control("d"), on: &buffer) == .ended)
    }

    @Test func controlLAsksToClearTheScreen() {
        var buffer = LineBuffer(text: "abc")
        #expect(press(.control("l"), on: &buffer) == .clearScreen)
        #expect(buffer.line == "abc")
    }

    @Test func controlTTransposes() {
        var buffer = LineBuffer(text: "lsit")
        press(.left, .left, on: &buffer)
        press(.control("t"), on: &buffer)
        #expect(shown(buffer) == "lis|t")
        #expect(press(.home, .control("t"), on: &buffer) == .bell)
        var atEnd = LineBuffer(text: "lits")
        press(.control("t"), on: &atEnd)
        #expect(shown(atEnd) == "list|", "at the end it swaps the last two")
    }

    @Test func historyWalksBackAndForthAndKeepsTheDraft() {
        var buffer = LineBuffer(history: ["list rent", "more"])
        type("fil", into: &buffer)
        press(.up, on: &buffer)
        #expect(buffer.line == "more")
        press(.control("p"), on: &buffer)
        #expect(press(.up, on: &buffer) == .bell, "no older entry")
        #expect(shown(buffer) == "list rent|")
        press(.down, on: &buffer)
        #expect(buffer.line == "more")
        press(.control("n"), on: &buffer)
        #expect(shown(buffer) == "fil|")
        #expect(press(.down, on: &buffer) == .bell)
        #expect(buffer.apply(.enter) == .submitted("fil"))
        #expect(buffer.history == ["list rent", "more"], "the buffer never changes the history")
    }

    @Test func historyStartsAgainFromTheNewestAfterALine() {
        var buffer = LineBuffer(history: ["a", "b", "c"])
        press(.up, .up, .enter, on: &buffer)
        press(.up, on: &buffer)
        #expect(buffer.line == "c")
    }

    @Test func combiningCharactersJoinTheOneBefore() {
        var buffer = LineBuffer()
        type("e", into: &buffer)
        _ = buffer.apply(.character("\u{301}"))
        #expect(buffer.text == ["e\u{301}"])
        _ = buffer.apply(.character("🇯"))
        _ = buffer.apply(.character("🇵"))
        #expect(buffer.text.count == 2, "two regional indicators make one flag")
        press(.backspace, on: &buffer)
        #expect(buffer.line == "e\u{301}")
    }

    @Test func wideCharactersAreOneCursorStep() {
        var buffer = LineBuffer()
        type("静安😀", into: &buffer)
        press(.left, .backspace, on: &buffer)
        #expect(shown(buffer) == "静|😀")
    }

    @Test func pasteInsertsAtTheCursor() {
        var buffer = LineBuffer(text: "list ")
        press(.home, .paste("go "), on: &buffer)
        #expect(shown(buffer) == "go |list ")
    }

    @Test func unboundKeysRingTheBell() {
        var buffer = LineBuffer(text: "a")
        #expect(press(.control("o"), on: &buffer) == .bell)
        #expect(press(.alt("z"), on: &buffer) == .bell)
        #expect(press(.escape, on: &buffer) == .bell)
        #expect(buffer.line == "a")
    }
}
