import LineEditing
import TerminalTesting
import Testing

@Suite struct LineTextTests {
    /// A small random generator with a seed, so a failure is repeatable.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            // SplitMix64.
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    @Test func randomEditsAgreeWithAnArray() {
        var random = Seeded(state: 22)
        var text = LineText()
        var model: [Character] = []
        let alphabet: [Character] = Array("abcdefgh 静😀é")
        for step in 0..<1_000 {
            let before = text
            let lower = Int.random(in: 0...model.count, using: &random)
            let upper = Int.random(
                in: lower...min(model.count, lower + (model.count > 3_000 ? 2_500 : step % 7 == 0 ? 40 : 3)),
                using: &random)
            let length =
                step % 11 == 0 ? Int.random(in: 0...600, using: &random) : Int.random(in: 0...2, using: &random)
            let inserted = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
            text.replaceSubrange(lower..<upper, with: inserted)
            model.replaceSubrange(lower..<upper, with: inserted)
            #expect(Array(text) == model)
            #expect(text.count == model.count)
            let difference = text.firstDifference(from: before)
            let expected =
                Array(zip(text, before)).firstIndex { $0 != $1 }
                ?? (text.count == before.count ? nil : min(text.count, before.count))
            #expect(difference == expected, "step \(step)")
        }
        for index in stride(from: 0, to: model.count, by: 37) { #expect(text[index] == model[index]) }
        let end = min(50, model.count)
        #expect(text.characters(in: min(5, end)..<end) == Array(model[min(5, end)..<end]))
        #expect(model.count > 100, "the edits grew the line past a leaf")
        #expect(String(text) == String(model))
    }

    @Test func anOldVersionKeptDoesNotChange() {
        var text = LineText(Array(repeating: "a", count: 10_000))
        let kept = text
        text.insert("b", at: 5_000)
        text.removeSubrange(0..<10)
        #expect(kept.count == 10_000 && kept.allSatisfy { $0 == "a" })
        #expect(text.count == 9_991 && text[4_990] == "b")
        #expect(text.firstDifference(from: kept) == 4_990)
        #expect(kept == LineText(String(repeating: "a", count: 10_000)))
    }

    @Test func emptyAndLiteral() {
        let text: LineText = ["a", "b"]
        #expect(LineText().isEmpty && LineText().firstDifference(from: LineText()) == nil)
        #expect(text.firstDifference(from: LineText()) == 0)
        #expect(String(text[1...]) == "b")
    }
}

@Suite struct LineViewTests {
    /// Draws each model on a screen emulator and checks the screen against `LineLayout`.
    @Test func whatIsDrawnMatchesTheLayoutAfterEveryEdit() {
        var random = LineTextTests.Seeded(state: 7)
        let width = 20
        let view = LineView { width }
        var screen = ScreenEmulator(columns: width, height: 40)
        var text: [Character] = []
        let alphabet: [Character] = Array("abcd 静😀é")
        for step in 0..<600 {
            let lower = Int.random(in: 0...text.count, using: &random)
            let upper = Int.random(in: lower...min(text.count, lower + 2), using: &random)
            let count = step % 13 == 0 ? 45 : Int.random(in: 0...2, using: &random)
            let inserted = (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
            text.replaceSubrange(lower..<upper, with: inserted)
            if text.count > 150 { text.removeSubrange(0..<100) }
            let cursor = Int.random(in: 0...text.count, using: &random)
            let prompt = step % 50 < 25 ? "homes> " : "(search)`x': "
            screen.feed(view.render(EditorViewModel(prompt: prompt, text: LineText(text), cursor: cursor)))
            let layout = LineLayout(prompt: prompt, text: text, cursor: cursor, width: width)
            #expect(screen.lines == LineEditorTests.trimmed(layout.rows), "step \(step)")
            #expect(screen.cursor == (layout.cursorRow, layout.cursorColumn), "step \(step)")
        }
    }

    @Test func typingAtTheEndWritesTheCharacterTyped() {
        let view = LineView { 80 }
        var text = LineText(String(repeating: "x", count: 5_000))
        _ = view.render(EditorViewModel(prompt: "> ", text: text, cursor: text.count))
        text.append("y")
        let output = view.render(EditorViewModel(prompt: "> ", text: text, cursor: text.count))
        #expect(output == "\u{1B}[Jy")
        let moved = view.render(EditorViewModel(prompt: "> ", text: text, cursor: text.count - 1))
        #expect(moved == "\r\u{1B}[42C", "a motion writes only the cursor's move")
    }

    @Test func aSuggestionAndStylesAreDrawnAfterTheLine() {
        let view = LineView(colors: true) { 80 }
        let text = LineText("list n")
        let output = view.render(
            EditorViewModel(
                prompt: "> ", text: text, cursor: 6, suggestion: "ew", spans: [HighlightSpan(0..<4, .command)]))
        #expect(output.contains("\u{1B}[0m\u{1B}[32mlist\u{1B}[0m n\u{1B}[0m\u{1B}[2mew\u{1B}[0m"))
        let plain = LineView(colors: false) { 80 }
        let uncoloured = plain.render(EditorViewModel(prompt: "> ", text: text, cursor: 6, suggestion: "ew"))
        #expect(!uncoloured.contains("\u{1B}[3") && !uncoloured.contains("ew"), "no colours, no suggestion")
    }
}
