import LineEditing
import Testing

@Suite struct DisplayWidthTests {
    @Test func columnsOfCharacters() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("静安") == 4, "CJK ideographs are wide")
        #expect(DisplayWidth.of("ｈｏｍｅ") == 8, "fullwidth forms are wide")
        #expect(DisplayWidth.of("한국어") == 6, "Hangul syllables are wide")
        #expect(DisplayWidth.of("カタカナ") == 8)
        #expect(DisplayWidth.of("ｶﾀｶﾅ") == 4, "halfwidth katakana are not")
        #expect(DisplayWidth.of("😀🚀🦊") == 6, "emoji are wide")
        #expect(DisplayWidth.of("👍🏽") == 2, "with a skin tone still one emoji")
        #expect(DisplayWidth.of("👩‍💻") == 2, "joined by ZWJ still one emoji")
        #expect(DisplayWidth.of("🇯🇵") == 2, "a flag")
        #expect(DisplayWidth.of("❤️") == 2, "a text symbol with the emoji selector")
        #expect(DisplayWidth.of("❤") == 1, "the same without it")
        #expect(DisplayWidth.of("1️⃣") == 2, "a keycap")
        #expect(DisplayWidth.of("é") == 1)
        #expect(DisplayWidth.of("e\u{301}") == 1, "a combining mark takes no column")
        #expect(DisplayWidth.of(Character("\u{301}")) == 0)
        #expect(DisplayWidth.of(Character("\u{200D}")) == 0, "a lone joiner takes none")
        #expect(DisplayWidth.of(Character("\u{200B}")) == 0, "nor a zero width space")
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("¥3,600 — ok") == 11)
    }
}

@Suite struct LineLayoutTests {
    @Test func aShortLineIsOneRow() {
        let layout = LineLayout(prompt: "> ", text: Array("list"), cursor: 2, width: 80)
        #expect(layout.rows == ["> list"])
        #expect(layout.cursorRow == 0 && layout.cursorColumn == 4)
    }

    @Test func aThreeHundredCharacterLineAtEightyColumnsIsFourRows() {
        let text = Array(String(repeating: "abcdefghij", count: 30))
        let atEnd = LineLayout(prompt: "", text: text, cursor: 300, width: 80)
        #expect(atEnd.rowCount == 4)
        #expect(atEnd.rows.map(\.count) == [80, 80, 80, 60])
        #expect(atEnd.cursorRow == 3 && atEnd.cursorColumn == 60)
        let inside = LineLayout(prompt: "homes> ", text: text, cursor: 150, width: 80)
        #expect(inside.rowCount == 4)
        #expect(inside.rows[0] == "homes> " + String(text[..<73]))
        #expect(inside.cursorRow == 1 && inside.cursorColumn == 77, "7 + 150 = 157 = 80 + 77")
        let home = LineLayout(prompt: "homes> ", text: text, cursor: 0, width: 80)
        #expect(home.cursorRow == 0 && home.cursorColumn == 7)
    }

    @Test func theCursorAtTheEndOfAFullRowStartsTheNextRow() {
        let text = Array(String(repeating: "x", count: 78))
        let layout = LineLayout(prompt: "> ", text: text, cursor: 78, width: 80)
        #expect(layout.rows == ["> " + String(text), ""])
        #expect(layout.cursorRow == 1 && layout.cursorColumn == 0)
        let before = LineLayout(prompt: "> ", text: text, cursor: 77, width: 80)
        #expect(before.rowCount == 1, "no empty row while the cursor is inside the line")
        #expect(before.cursorRow == 0 && before.cursorColumn == 79)
    }

    @Test func aWideCharacterThatDoesNotFitWrapsWhole() {
        let text = Array(String(repeating: "a", count: 79) + "漢字")
        let layout = LineLayout(prompt: "", text: text, cursor: 79, width: 80)
        #expect(layout.rows == [String(repeating: "a", count: 79), "漢字"])
        #expect(layout.cursorRow == 1 && layout.cursorColumn == 0)
        let after = LineLayout(prompt: "", text: text, cursor: 81, width: 80)
        #expect(after.cursorRow == 1 && after.cursorColumn == 4)
    }

    @Test func anEmojiAtTheWrapPoint() {
        let text = Array("> " + String(repeating: "b", count: 77) + "😀👩‍💻x")
        let layout = LineLayout(prompt: "", text: text, cursor: 80, width: 80)
        #expect(layout.rows == ["> " + String(repeating: "b", count: 77), "😀👩‍💻x"])
        #expect(layout.cursorRow == 1 && layout.cursorColumn == 2, "after the first emoji, before the second")
        let fits = LineLayout(prompt: "", text: Array(String(repeating: "b", count: 78) + "😀"), cursor: 79, width: 80)
        #expect(fits.rows == [String(repeating: "b", count: 78) + "😀", ""], "an emoji in the last two columns fits")
        #expect(fits.cursorRow == 1 && fits.cursorColumn == 0)
    }

    @Test func coloursInThePromptTakeNoColumns() {
        let prompt = "\u{1B}[1;34mhomes\u{1B}[0m> "
        let layout = LineLayout(prompt: prompt, text: Array("list"), cursor: 0, width: 10)
        #expect(layout.rows == [prompt + "lis", "t"])
        #expect(layout.cursorRow == 0 && layout.cursorColumn == 7)
    }

    @Test func combiningMarksTakeNoColumn() {
        let layout = LineLayout(prompt: "", text: ["e\u{301}", "a"], cursor: 1, width: 80)
        #expect(layout.cursorColumn == 1)
    }

    @Test func theCursorIsClampedToTheText() {
        let layout = LineLayout(prompt: "> ", text: ["a"], cursor: 9, width: 80)
        #expect(layout.cursorColumn == 3)
        let narrow = LineLayout(prompt: "", text: ["漢"], cursor: 1, width: 1)
        #expect(narrow.rows == ["漢", ""], "a character wider than the terminal still shows")
    }
}
