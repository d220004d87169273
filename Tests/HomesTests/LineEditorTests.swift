import HomesScreens
import Testing

@Suite struct LineBufferTests {
    func type(_ text: String, into buffer: inout LineBuffer) {
        for character in text { _ = buffer.apply(.character(character)) }
    }

    @Test func editingInTheMiddleAndSubmitting() {
        var buffer = LineBuffer()
        type("lst new", into: &buffer)
        for _ in 0..<6 { _ = buffer.apply(.left) }
        _ = buffer.apply(.character("i"))
        #expect(String(buffer.text) == "list new")
        _ = buffer.apply(.end)
        _ = buffer.apply(.backspace)
        _ = buffer.apply(.home)
        _ = buffer.apply(.delete)
        #expect(String(buffer.text) == "ist ne")
        #expect(buffer.apply(.enter) == .submitted("ist ne"))
        #expect(buffer.text.isEmpty)
    }

    @Test func historyWalksBackAndForthAndKeepsTheDraft() {
        var buffer = LineBuffer(history: ["list rent", "more"])
        type("fil", into: &buffer)
        _ = buffer.apply(.up)
        #expect(String(buffer.text) == "more")
        _ = buffer.apply(.up)
        _ = buffer.apply(.up)
        #expect(String(buffer.text) == "list rent")
        _ = buffer.apply(.down)
        _ = buffer.apply(.down)
        #expect(String(buffer.text) == "fil")
        _ = buffer.apply(.enter)
        #expect(buffer.entries == ["list rent", "more", "fil"])
        _ = buffer.apply(.enter)
        #expect(buffer.entries.count == 3)
    }

    @Test func interruptAndEndOfInput() {
        var buffer = LineBuffer()
        type("abc", into: &buffer)
        #expect(buffer.apply(.endOfInput) == .editing)
        #expect(buffer.apply(.interrupt) == .cancelled)
        #expect(buffer.apply(.endOfInput) == .ended)
    }

    @Test func wideCharactersAreOneCursorStep() {
        var buffer = LineBuffer()
        type("静安😀", into: &buffer)
        _ = buffer.apply(.left)
        _ = buffer.apply(.backspace)
        #expect(String(buffer.text) == "静😀")
    }
}
