import Foundation
import LineEditing
import Signals
import TerminalTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LineEditorTests {
    static let prompt = "homes> "

    /// `rows` as the screen shows them: without trailing spaces, nor trailing empty rows.
    static func trimmed(_ rows: [String]) -> [String] {
        var rows = rows.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        while rows.last == "" { rows.removeLast() }
        return rows
    }

    /// `output` without its escape sequences (`ESC [` to a final byte).
    static func plain(_ output: String) -> String {
        var plain = ""
        var characters = output[...]
        while let character = characters.popFirst() {
            guard character == "\u{1B}", characters.first == "[" else {
                plain.append(character)
                continue
            }
            characters.removeFirst()
            while let next = characters.popFirst(), !("@"..."~").contains(next) {}
        }
        return plain
    }

    /// `count` characters: words of nine letters, a space after each.
    static func words(_ count: Int) -> [Character] {
        let letters: [Character] = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<count).map { (index: Int) -> Character in index % 10 == 9 ? " " : letters[index % 26] }
    }

    /// Reads one line on a pseudo-terminal while typing `steps`, one per redraw.
    func readLine(
        _ steps: [String], columns: Int = 80, history: LineHistory? = nil, hangsUp: Bool = false,
        complete: @escaping @Sendable (String) -> [String] = { _ in [] },
        redact: (String) -> String? = { _ in nil },
        onStep: @escaping (ScreenEmulator) -> Void = { _ in }
    ) throws -> (line: String?, session: TypingSession) {
        let session = try TypingSession(columns: columns, steps, hangsUpAtTheEnd: hangsUp)
        session.onStep = onStep
        let editor = LineEditor(history: history, input: session.pty.terminal, write: { session.write($0) })
        let line = editor.readLine(prompt: Self.prompt, complete: complete, redact: redact)
        #expect(session.screen.unknown.isEmpty, "sequences the screen does not know: \(session.screen.unknown)")
        return (line, session)
    }

    @Test func afterALineTheTerminalEchoesNothingTypedAheadButSignalsAgain() throws {
        // A terminal as a shell leaves it: echo and line editing on.
        var master: Int32 = -1
        var terminal: Int32 = -1
        guard openpty(&master, &terminal, nil, nil, nil) == 0 else { throw CocoaError(.fileNoSuchFile) }
        defer {
            close(master)
            close(terminal)
        }
        var settings = termios()
        tcgetattr(terminal, &settings)
        #expect(settings.c_lflag & tcflag_t(ECHO) != 0 && settings.c_lflag & tcflag_t(ICANON) != 0)
        let typed = Array("one\r".utf8)
        _ = typed.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        let editor = LineEditor(input: terminal, columns: { 80 }, write: { _ in })
        #expect(editor.readLine(prompt: Self.prompt) == "one")
        var drained = [UInt8](repeating: 0, count: 4_096)
        var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        while poll(&ready, 1, 0) > 0 { _ = read(master, &drained, drained.count) }
        // Keys typed while the command runs: the terminal does not echo them (the next
        // read gets them), but Ctrl-C and Ctrl-Z are signals again.
        let ahead = Array("secret".utf8)
        _ = ahead.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        #expect(poll(&ready, 1, 200) == 0, "the terminal echoed keys typed ahead")
        tcgetattr(terminal, &settings)
        #expect(settings.c_lflag & tcflag_t(ECHO) == 0 && settings.c_lflag & tcflag_t(ICANON) == 0)
        #expect(settings.c_lflag & tcflag_t(ISIG) != 0)
        var unread: Int32 = 0
        _ = ioctl(terminal, UInt(FIONREAD), &unread)
        #expect(unread == 6)
    }

    @Test func aLineIsEditedAndSubmitted() throws {
        let history = LineHistory(fileURL: nil)
        let (line, session) = try readLine(
            ["lst new", "\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[Di", "\r"],
            history: history)
        #expect(line == "list new")
        #expect(session.screen.lines == ["homes> list new"])
        #expect(session.screen.cursor == (1, 0), "the next output goes below the line")
        #expect(history.entries == ["list new"])
    }

    @Test func aThreeHundredCharacterPasteLeavesExactlyOnePrompt() throws {
        let pasted = Self.words(300)
        var screens: [ScreenEmulator] = []
        let (line, session) = try readLine(
            [String(pasted), "\u{1B}[H", "X", "\u{1B}[F", "\u{7F}\u{7F}", "\u{1B}[1;5D", "Y", "\r"],
            onStep: { screens.append($0) })
        // Ctrl-Left goes back to the start of the last word, 9 characters from the end.
        var expected = ["X"] + pasted.dropLast(2)
        expected.insert("Y", at: expected.count - 8)
        #expect(line == String(expected))
        for screen in screens {
            let prompts = screen.lines.joined().components(separatedBy: "homes>").count - 1
            #expect(prompts == 1, "one prompt on the screen, not \(prompts): \(screen.lines)")
        }
        // After the paste: four rows, the cursor after the last character.
        #expect(
            screens[1].lines == Self.trimmed(LineLayout(prompt: Self.prompt, text: pasted, cursor: 300, width: 80).rows)
        )
        #expect(screens[1].cursor == (3, 67))
        // Home goes back up to the prompt's row.
        #expect(screens[2].cursor == (0, 7))
        #expect(screens[3].cursor == (0, 8))
        #expect(screens[6].cursor == (3, 58))
        let final = LineLayout(prompt: Self.prompt, text: expected, cursor: expected.count, width: 80)
        #expect(session.screen.lines == Self.trimmed(final.rows))
        #expect(session.screen.cursor == (4, 0))
    }

    @Test func aBracketedPasteIsDrawnOnce() throws {
        let pasted = String(repeating: "0123456789", count: 30)
        let (line, session) = try readLine(["\u{1B}[200~" + pasted + "\n\u{1B}[201~", "\r"])
        #expect(line == pasted + " ", "a pasted line break does not submit")
        #expect(session.writes.count == 3, "the prompt, the paste, the final line")
        #expect(session.writes[0].hasPrefix("\u{1B}[?2004h"), "bracketed paste is turned on")
        #expect(session.writes[2].hasSuffix("\u{1B}[?2004l"), "and off again")
        #expect(session.screen.lines.count == 4)
    }

    @Test func theWidthComesFromTheTerminal() throws {
        let text = String(repeating: "w", count: 60)
        let (_, session) = try readLine([text, "\r"], columns: 50)
        #expect(
            session.screen.lines == ["homes> " + String(repeating: "w", count: 43), String(repeating: "w", count: 17)])
    }

    @Test func aResizeIsPickedUpAtTheNextKey() throws {
        let text = String(repeating: "r", count: 100)
        let session = try TypingSession([text, "s", "\r"])
        var steps = 0
        session.onStep = { [unowned session] _ in
            steps += 1
            if steps == 2 { session.pty.resize(columns: 40) }
        }
        let editor = LineEditor(input: session.pty.terminal, write: { session.write($0) })
        #expect(editor.readLine(prompt: Self.prompt) == text + "s")
        let wide = LineLayout(prompt: Self.prompt, text: Array(text), cursor: 100, width: 80)
        let narrow = LineLayout(prompt: Self.prompt, text: Array(text + "s"), cursor: 101, width: 40)
        #expect(narrow.rowCount == 3)
        #expect(Self.plain(session.output).contains(wide.rows.joined(separator: "\r\n").dropFirst(Self.prompt.count)))
        // The key after the resize draws the line again at the new width (then Enter ends it).
        #expect(Self.plain(session.writes.dropLast().last ?? "").contains(narrow.rows.joined(separator: "\r\n")))
    }

    @Test func controlCWritesTheCaretAndReturnsAnEmptyLine() throws {
        let (line, session) = try readLine(["abc", "\u{1B}[D\u{1B}[D", "\u{03}"])
        #expect(line == "")
        #expect(session.screen.lines == ["homes> abc^C"])
        #expect(session.screen.cursor == (1, 0))
    }

    @Test func controlCWhileWorkRunsStopsItOutsideTheDisplaysLock() throws {
        // The interrupt stops the work at once, and the work's end clears its status,
        // which takes the display's lock: called under it, it would wait forever.
        final class Count: @unchecked Sendable {
            // Safe to share: `value` is touched only under `lock`.
            private let lock = NSLock()
            private var count = 0
            func add() { lock.withLock { count += 1 } }
            var value: Int { lock.withLock { count } }
        }
        let session = try TypingSession(columns: 80, ["abc", "\u{03}", "\r"], hangsUpAtTheEnd: false)
        let editor = LineEditor(input: session.pty.terminal, write: { session.write($0) })
        let interrupts = Count()
        editor.display.setStatus("loading")
        editor.display.onInterrupt { [display = editor.display] in
            interrupts.add()
            display.setStatus(nil)
        }
        #expect(editor.readLine(prompt: Self.prompt) == "abc", "Ctrl-C stopped the work and kept the line")
        #expect(interrupts.value == 1)
    }

    @Test func controlDOnAnEmptyLineAndTheEndOfInputEndTheInput() throws {
        let (ended, _) = try readLine(["\u{04}"])
        #expect(ended == nil)
        let (hungUp, session) = try readLine(["abc"], hangsUp: true)
        #expect(hungUp == nil)
        #expect(session.screen.cursor == (1, 0))
        let (deleted, _) = try readLine(["ab", "\u{01}\u{04}", "\r"])
        #expect(deleted == "b", "on a line Ctrl-D deletes under the cursor")
    }

    @Test func unknownKeysAreNotTyped() throws {
        let (line, session) = try readLine(["\u{1B}OPa\u{1B}[15~\u{1B}[1;5P", "\r"])
        #expect(line == "a")
        #expect(session.screen.lines == ["homes> a"])
    }

    @Test func redactionRewritesTheEchoedLineAndKeepsItOutOfHistory() throws {
        let history = LineHistory(fileURL: nil)
        let redact: (String) -> String? = { line in
            line.hasPrefix("password ") ? "password •••" : nil
        }
        let (line, session) = try readLine(["password hunter22", "\r"], history: history, redact: redact)
        #expect(line == "password hunter22")
        #expect(session.screen.lines == ["homes> password •••"])
        #expect(!session.screen.lines.joined().contains("hunter22"))
        #expect(history.entries.isEmpty)
        let (plain, _) = try readLine(["list", "\r"], history: history, redact: redact)
        #expect(plain == "list")
        #expect(history.entries == ["list"])
    }

    @Test func aSecretIsNeverWritten() throws {
        let history = LineHistory(fileURL: nil)
        let session = try TypingSession(["hunter22\u{7F}2\r", "abc\u{15}xy\r", "\u{03}", "\u{04}"])
        session.typeAll()
        let editor = LineEditor(history: history, input: session.pty.terminal, write: { session.write($0) })
        #expect(editor.readSecret(prompt: "Password: ") == "hunter22")
        #expect(session.output == "Password: \r\n")
        #expect(editor.readSecret(prompt: "Again: ") == "xy")
        #expect(editor.readSecret(prompt: "Again: ") == "")
        #expect(editor.readSecret(prompt: "Again: ") == nil)
        #expect(!session.output.contains("hunter") && !session.output.contains("xy"))
        #expect(history.entries.isEmpty)
    }

    @Test func aSecondTabListsTheCandidatesUnderTheLine() throws {
        let complete: @Sendable (String) -> [String] = { before in
            ["list", "login", "logout"].filter { $0.hasPrefix(before) }
        }
        let (line, session) = try readLine(["lo", "\t", "\t", "i\t", "\r"], complete: complete)
        #expect(line == "login ")
        #expect(session.screen.lines == ["homes> log", "login   logout", "homes> login"])
    }

    @Test func controlLClearsTheScreenAndDrawsTheLineAtTheTop() throws {
        let session = try TypingSession(["abc", "\u{0C}", "\r"])
        session.screen.feed("earlier output\r\nmore\r\n")
        let editor = LineEditor(input: session.pty.terminal, write: { session.write($0) })
        var cleared: ScreenEmulator?
        session.onStep = { screen in
            if screen.lines.first == Self.prompt + "abc" { cleared = cleared ?? screen }
        }
        #expect(editor.readLine(prompt: Self.prompt) == "abc")
        let screen = try #require(cleared)
        #expect(screen.lines == ["homes> abc"])
        #expect(screen.cursor == (0, 10))
    }

    @Test func reverseSearchThroughTheTerminal() throws {
        let history = LineHistory(fileURL: nil)
        ["list rent", "filter rooms 2", "open 3"].forEach(history.add)
        var searching: [String] = []
        let (line, session) = try readLine(
            ["\u{12}", "ro", "\u{1B}", "\u{05} 3", "\r"], history: history,
            onStep: { searching.append($0.lines.joined(separator: "\n")) })
        #expect(searching[2] == "(reverse-i-search)`ro': filter rooms 2")
        #expect(searching[3] == "homes> filter rooms 2", "Escape accepts the match")
        #expect(line == "filter rooms 2 3")
        #expect(session.screen.lines == ["homes> filter rooms 2 3"])
    }

    @Test func keysTypedAheadAreKeptForTheNextLine() throws {
        let session = try TypingSession(["one\rtwo\r"])
        let editor = LineEditor(input: session.pty.terminal, write: { session.write($0) })
        #expect(editor.readLine(prompt: "> ") == "one")
        #expect(editor.readLine(prompt: "> ") == "two")
        #expect(session.screen.lines == ["> one", "> two"])
    }

    @Test func historyIsRecalledWithUp() throws {
        let history = LineHistory(fileURL: nil)
        history.add("list new")
        let (line, _) = try readLine(["\u{1B}[A", "\u{10}", "\u{0E}\u{0E}\u{1B}[A", "\r"], history: history)
        #expect(line == "list new")
    }

    @Test func notATerminalReadsPlainLines() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let text = Array("first\nsecond\r\nthird 静".utf8)
        #expect(write(ends[1], text, text.count) == text.count)
        close(ends[1])
        var written = ""
        let editor = LineEditor(input: ends[0], write: { written += $0 })
        #expect(editor.readLine(prompt: "> ") == "first")
        #expect(editor.readSecret(prompt: "> ") == "second")
        #expect(editor.readLine(prompt: "> ") == "third 静")
        #expect(editor.readLine(prompt: "> ") == nil)
        #expect(written == "")
        close(ends[0])
    }

    @Test func anInjectedWidthIsUsed() throws {
        let session = try TypingSession(columns: 20, [String(repeating: "z", count: 30), "\r"])
        let editor = LineEditor(input: session.pty.terminal, columns: { 20 }, write: { session.write($0) })
        session.pty.resize(columns: 200)
        _ = editor.readLine(prompt: "> ")
        #expect(session.screen.lines == ["> " + String(repeating: "z", count: 18), String(repeating: "z", count: 12)])
    }
}

@Suite struct SuggestionTests {
    static let history = ["list rent", "open 3", "list resale"]

    func controller(colors: Bool = true) -> LineEditorController {
        let screen = EditorScreen(colors: colors) { text in
            ["list", "login", "logout"].filter { $0.hasPrefix(text) }
        }
        return LineEditorController(prompt: "> ", history: Self.history, screen: screen) { 80 }
    }

    func type(_ text: String, into controller: LineEditorController) {
        for character in text { controller.apply(.character(character)) }
    }

    @Test func theNewestEntryThatStartsWithTheLineIsSuggestedAndArrowTakesIt() {
        let editor = controller()
        type("list r", into: editor)
        #expect(editor.viewModel.value.suggestion == "esale")
        type("en", into: editor)
        #expect(editor.viewModel.value.suggestion == "t")
        editor.apply(.right)
        #expect(editor.state.value.buffer.line == "list rent")
        #expect(editor.viewModel.value.suggestion == "")
    }

    @Test func controlFTakesAllAndAltFOneWord() {
        let editor = controller()
        type("li", into: editor)
        #expect(editor.viewModel.value.suggestion == "st resale")
        editor.apply(.alt("f"))
        #expect(editor.state.value.buffer.line == "list")
        editor.apply(.control("f"))
        #expect(editor.state.value.buffer.line == "list resale")
    }

    @Test func aCompletionIsSuggestedWhenNoEntryStartsWithTheLine() {
        let editor = controller()
        type("lo", into: editor)
        #expect(editor.viewModel.value.suggestion == "gin")
    }

    @Test func noSuggestionWithoutColoursWhileSearchingOrBeforeTheEnd() {
        let plain = controller(colors: false)
        type("list r", into: plain)
        #expect(plain.viewModel.value.suggestion == "")
        plain.apply(.right)
        #expect(plain.state.value.buffer.line == "list r", "→ at the end does nothing more")
        let editor = controller()
        type("list r", into: editor)
        editor.apply(.left)
        #expect(editor.viewModel.value.suggestion == "")
        editor.apply(.control("r"))
        #expect(editor.viewModel.value.suggestion == "")
    }

    /// Typing what is suggested writes the character typed, not the rest of a suggestion of
    /// any length again; the screen shows the line and the rest after it all along.
    @Test func typingWhatIsSuggestedWritesOnlyTheCharacterTyped() {
        let entry = "ask " + String(repeating: "abcdefghi ", count: 300)
        let editor = LineEditorController(prompt: "> ", history: [entry], screen: EditorScreen(colors: true)) { 80 }
        editor.begin(prompt: "> ", history: [entry])
        var screen = ScreenEmulator(columns: 80, height: 60)
        screen.feed(editor.takeOutput())
        for (index, character) in entry.prefix(40).enumerated() {
            editor.apply(.character(character))
            let written = editor.takeOutput()
            screen.feed(written)
            if index > 0 {
                #expect(LineEditorTests.plain(written) == String(character), "wrote \(written.debugDescription)")
            }
        }
        #expect(editor.viewModel.value.suggestion == String(entry.dropFirst(40)))
        #expect(screen.lines.joined().filter { $0 != " " } == ">" + entry.filter { $0 != " " })
        #expect(screen.cursor == (0, 42))
    }

    @Test func theScreensColoursAreInTheViewModelAsYouType() {
        let screen = EditorScreen(colors: true) { _ in
            []
        } highlight: { line in
            line.hasPrefix("list") ? [HighlightSpan(0..<4, .command)] : [HighlightSpan(0..<line.count, .unknownCommand)]
        }
        let editor = LineEditorController(prompt: "> ", screen: screen) { 80 }
        type("lis", into: editor)
        #expect(editor.viewModel.value.spans == [HighlightSpan(0..<3, .unknownCommand)])
        type("t", into: editor)
        #expect(editor.viewModel.value.spans == [HighlightSpan(0..<4, .command)])
        #expect(editor.takeOutput().contains("\u{1B}[0m\u{1B}[32mlist\u{1B}[0m"))
        // Plain without colours, and for a line too long to be a command.
        editor.screen.value.colors = false
        #expect(editor.viewModel.value.spans == [])
        editor.screen.value.colors = true
        editor.apply(.paste(String(repeating: "x", count: EditorScreen.highlightedLength)))
        #expect(editor.viewModel.value.spans == [])
    }

    @Test func theSearchIsInTheViewModelWithItsMatch() {
        let editor = controller()
        editor.apply(.control("r"))
        #expect(editor.viewModel.value.search == EditorSearch(query: "", failed: false, match: nil))
        type("RES", into: editor)
        #expect(editor.viewModel.value.search == EditorSearch(query: "RES", failed: true, match: nil), "smart case")
        for _ in 0..<3 { editor.apply(.backspace) }
        type("res", into: editor)
        #expect(editor.viewModel.value.search == EditorSearch(query: "res", failed: false, match: 5..<8))
        #expect(editor.viewModel.value.text == LineText("list resale"))
        #expect(editor.viewModel.value.spans == [HighlightSpan(5..<8, .match)])
        #expect(editor.takeOutput().contains("\u{1B}[7mres"), "the match reversed")
        editor.apply(.escape)
        #expect(editor.viewModel.value.search == nil)
        #expect(editor.viewModel.value.spans == [])
        let plain = controller(colors: false)
        plain.apply(.control("r"))
        type("res", into: plain)
        #expect(plain.viewModel.value.search?.match == 5..<8)
        #expect(plain.viewModel.value.spans == [], "no colours")
    }

    @Test func theSuggestionIsShownDimOnTheTerminalAndTaken() throws {
        let history = LineHistory(fileURL: nil)
        Self.history.forEach(history.add)
        var shown: [String] = []
        let session = try TypingSession(["open", "\u{06}", "\r"])
        session.onStep = { shown.append($0.lines.joined(separator: "\n")) }
        let editor = LineEditor(history: history, input: session.pty.terminal, colors: true) { session.write($0) }
        #expect(editor.readLine(prompt: "homes> ") == "open 3")
        #expect(shown[1] == "homes> open 3", "the suggestion after what was typed")
        #expect(session.writes[1].contains("\u{1B}[2m 3"), "dim")
        #expect(session.screen.lines == ["homes> open 3"])
    }
}

@Suite struct LineDisplayTests {
    /// Text another thread writes while a line is edited goes above the line, which comes
    /// back below it exactly as it was, cursor included.
    @Test func textWrittenWhileEditingGoesAboveTheLine() throws {
        let session = try TypingSession(["open 3 now", "\u{1B}b"])
        let editor = LineEditor(input: session.pty.terminal, columns: { 80 }) { session.write($0) }
        let display = editor.display
        var steps = 0
        var cursorBefore: (row: Int, column: Int)?
        session.onStep = { screen in
            steps += 1
            guard steps == 3 else { return }
            cursorBefore = screen.cursor
            let pty = session.pty
            DispatchQueue.global().async {
                display.write("Rentals\r\n1  Loft\r\n")
                pty.type("\r")
            }
        }
        #expect(editor.readLine(prompt: "homes> ") == "open 3 now")
        let lines = session.screen.lines
        #expect(lines == ["Rentals", "1  Loft", "homes> open 3 now"], "\(lines)")
        #expect(cursorBefore.map { $0 == (0, 14) } == true)
        // The line came back with the cursor on `now`, where Alt-B left it.
        let drawnAgain = session.writes.last { $0.contains("homes> ") } ?? ""
        #expect(drawnAgain.hasSuffix("\r\u{1B}[14C"), "\(drawnAgain.debugDescription)")
        #expect(!display.isEditing)
    }
}

@Suite struct StatusRowTests {
    /// The status of work in flight is a row above the prompt; a new status (the spinner
    /// turning) writes that row alone, and the line stays as it is below it.
    @Test func aNewStatusWritesItsRowAlone() {
        let view = LineView { 20 }
        var screen = ScreenEmulator(columns: 20, height: 5)
        let line = LineText("open 3 near the park")
        screen.feed(view.render(EditorViewModel(prompt: "> ", text: line, cursor: 7, status: "⠋ loading… 0 s")))
        #expect(screen.lines == ["⠋ loading… 0 s", "> open 3 near the pa", "rk"])
        #expect(screen.cursor == (1, 9))
        let tick = view.render(
            EditorViewModel(prompt: "> ", text: line, cursor: 7, status: "⠙ loading… 1 s (Ctrl-C stops it)"))
        screen.feed(tick)
        #expect(!tick.contains("open"), "the line is not written again: \(tick.debugDescription)")
        #expect(screen.lines == ["⠙ loading… 1 s (Ctr", "> open 3 near the pa", "rk"])
        #expect(screen.cursor == (1, 9))
        // Without a status the rows move up: everything is drawn again.
        screen.feed(view.render(EditorViewModel(prompt: "> ", text: line, cursor: 7)))
        #expect(screen.lines == ["> open 3 near the pa", "rk"])
    }
}
