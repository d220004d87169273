import TerminalTesting
import Testing

@Suite struct ScreenEmulatorTests {
    @Test func wrapsMovesAndErases() {
        var screen = ScreenEmulator(columns: 5, height: 3)
        screen.feed("abcdefg")
        #expect(screen.lines == ["abcde", "fg"])
        screen.feed("\u{1B}[1A\r\u{1B}[2C\u{1B}[K")
        #expect(screen.lines == ["ab", "fg"])
        screen.feed("\u{1B}[J")
        #expect(screen.lines == ["ab"])
        screen.feed("\r\n\r\n\r\nx漢")
        #expect(screen.lines == ["", "", "x漢"], "scrolled up by one")
        #expect(screen.cursor == (2, 3))
        screen.feed("\u{1B}[2J\u{1B}[H")
        #expect(screen.lines == [] && screen.cursor == (0, 0))
        #expect(screen.unknown.isEmpty)
    }
}
