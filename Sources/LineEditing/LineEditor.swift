#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads lines from a terminal with readline's editing keys, history, reverse search and
/// completion, written here instead of linking a GPL library.
///
/// The terminal is held raw only while a line is read. Each change redraws the prompt and
/// line, however many rows they take, in one write: up over the rows drawn before, erase
/// to the end of the screen, the rows, then the cursor to its row and column. The width is
/// asked of the terminal at each redraw, so a resize is picked up at the next key.
/// When the input is not a terminal, lines are read as they come, with no prompt.
public final class LineEditor {
    private let history: LineHistory
    private let input: Int32
    private let columns: (() -> Int)?
    private let write: (String) -> Void
    private var buffer = LineBuffer()
    private var decoder = KeyDecoder()
    /// Keys read after the end of a line, for the next one.
    private var typedAhead: [Key] = []
    /// Bytes read after the end of a line when the input is not a terminal.
    private var unreadBytes: [UInt8] = []
    /// The row of the cursor in what was drawn last, from the prompt's row.
    private var cursorRowDrawn = 0

    /// How long to wait for the rest of an escape sequence before taking ESC as Escape.
    private static let escapeTimeoutMilliseconds: Int32 = 100
    private static let bracketedPasteOn = "\u{1B}[?2004h"
    private static let bracketedPasteOff = "\u{1B}[?2004l"

    /// An editor reading keys from `input`, keeping lines in `history` (in memory when nil)
    /// and writing its echo with `write`, each redraw in one call.
    ///
    /// `columns` gives the terminal's width; by default it is asked of `input` (then of
    /// standard output) at each redraw, 80 when neither knows.
    public init(
        history: LineHistory? = nil, input: Int32 = STDIN_FILENO, columns: (() -> Int)? = nil,
        write: @escaping (String) -> Void
    ) {
        self.history = history ?? LineHistory(fileURL: nil)
        self.input = input
        self.columns = columns
        self.write = write
    }

    /// Reads one line after `prompt`; nil at end of input (Ctrl-D on an empty line, EOF).
    ///
    /// Between two reads the terminal stays quiet (no echo, keys kept for the next read,
    /// signal keys on) and is put back when the process exits, on SIGTERM/SIGHUP through
    /// `TerminalRestorer.restore()`, or on a fatal signal. A program that lets SIGINT or
    /// SIGTSTP take their default action between reads should restore the terminal itself
    /// first (`homes` watches SIGINT).
    ///
    /// Ctrl-C drops the line: it returns "" after writing "^C" and a line break.
    ///
    /// `complete` gets the text before the cursor and returns candidates for the word being
    /// typed (whole replacement words): the editor puts in their longest common prefix, and
    /// a second Tab lists them under the line and draws the line again.
    ///
    /// `redact` returns the form of a submitted line that may be shown and remembered when
    /// the line carries a secret (e.g. "password hunter22" -> "password •••"), or nil when it
    /// carries none: the echoed line is then rewritten in that form and not added to history.
    public func readLine(
        prompt: String, complete: (String) -> [String] = { _ in [] },
        redact: (String) -> String? = { _ in nil }
    ) -> String? {
        guard let rawMode = RawMode(input) else { return readPlainLine() }
        defer { rawMode.settle() }
        buffer.history = history.entries
        cursorRowDrawn = 0
        write(Self.bracketedPasteOn + redraw(prompt: prompt))
        while true {
            guard let keys = nextKeys() else {
                write(redrawAtEnd(prompt: prompt, text: buffer.text) + Self.bracketedPasteOff)
                return nil
            }
            var output = ""
            for (index, key) in keys.enumerated() {
                let shown = buffer.text
                let outcome = buffer.apply(key, complete: complete)
                switch outcome {
                case .editing, .bell:
                    continue
                case .clearScreen:
                    output += "\u{1B}[H\u{1B}[2J"
                    cursorRowDrawn = 0
                case .listCompletions(let candidates):
                    let display = buffer.display(prompt: prompt)
                    output += redrawAtEnd(prompt: display.prompt, text: display.text)
                    output += Self.columns(of: candidates, width: width())
                    cursorRowDrawn = 0
                case .submitted, .cancelled, .ended:
                    typedAhead = Array(keys[(index + 1)...])
                    return finish(outcome, shown: shown, prompt: prompt, output: output, redact: redact)
                }
            }
            write(output + redraw(prompt: prompt))
        }
    }

    /// Reads a secret without echo: nothing but the prompt (and the line break after) is
    /// written, and the secret is never stored in history. Backspace and Ctrl-U edit it;
    /// Ctrl-C returns "", Ctrl-D on an empty secret or the end of input nil.
    public func readSecret(prompt: String) -> String? {
        guard let rawMode = RawMode(input) else { return readPlainLine() }
        defer { rawMode.settle() }
        write(prompt)
        var secret: [Character] = []
        while let keys = nextKeys() {
            for (index, key) in keys.enumerated() {
                var ending: (result: String?, echo: String)?
                switch key {
                case .character(let character): secret.append(character)
                case .paste(let text): secret += text
                case .backspace: _ = secret.popLast()
                case .control("u"): secret = []
                case .enter: ending = (String(secret), "\r\n")
                case .control("c"): ending = ("", "^C\r\n")
                case .control("d") where secret.isEmpty: ending = (nil, "\r\n")
                default: break
                }
                if let ending {
                    typedAhead = Array(keys[(index + 1)...])
                    write(ending.echo)
                    return ending.result
                }
            }
        }
        write("\r\n")
        return nil
    }

    /// The columns of the terminal `descriptor` refers to; nil when it is not a terminal.
    public static func terminalColumns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    // MARK: - Reading

    /// The keys of the next read (or those typed ahead); nil at the end of input.
    private func nextKeys() -> [Key]? {
        if !typedAhead.isEmpty {
            defer { typedAhead = [] }
            return typedAhead
        }
        var bytes = [UInt8](repeating: 0, count: 4096)
        while true {
            if decoder.isWaitingForEscapeSequence && !hasInput(within: Self.escapeTimeoutMilliseconds) {
                let keys = decoder.flush()
                if !keys.isEmpty { return keys }
                continue
            }
            let count = bytes.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            let keys = decoder.decode(bytes[..<count])
            if !keys.isEmpty { return keys }
        }
    }

    private func hasInput(within milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// A line read as it comes, without editing: when the input is not a terminal.
    private func readPlainLine() -> String? {
        var bytes = [UInt8](repeating: 0, count: 4096)
        while !unreadBytes.contains(UInt8(ascii: "\n")) {
            let count = bytes.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            unreadBytes += bytes[..<count]
        }
        guard !unreadBytes.isEmpty else { return nil }
        let end = unreadBytes.firstIndex(of: UInt8(ascii: "\n")) ?? unreadBytes.count
        var line = Array(unreadBytes[..<end])
        unreadBytes.removeFirst(min(end + 1, unreadBytes.count))
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    // MARK: - Drawing

    private func width() -> Int {
        if let columns { return max(1, columns()) }
        return Self.terminalColumns(of: input) ?? Self.terminalColumns(of: STDOUT_FILENO) ?? 80
    }

    /// Ends the line that `outcome` ended (`shown` is the text before the last key): draws
    /// it one last time, as it is to stay on the screen, and returns what `readLine` returns.
    private func finish(
        _ outcome: LineBuffer.Outcome, shown: [Character], prompt: String, output: String,
        redact: (String) -> String?
    ) -> String? {
        var output = output
        let result: String?
        switch outcome {
        case .submitted(let line):
            if let redacted = redact(line) {
                output += redrawAtEnd(prompt: prompt, text: Array(redacted))
            } else {
                output += redrawAtEnd(prompt: prompt, text: Array(line))
                history.add(line)
            }
            result = line
        case .cancelled:
            output += redrawAtEnd(prompt: prompt, text: shown + ["^", "C"])
            result = ""
        default:
            output += redrawAtEnd(prompt: prompt, text: shown)
            result = nil
        }
        write(output + Self.bracketedPasteOff)
        return result
    }

    /// The prompt and line drawn again in place, as the buffer shows them.
    private func redraw(prompt: String) -> String {
        let display = buffer.display(prompt: prompt)
        return draw(LineLayout(prompt: display.prompt, text: display.text, cursor: display.cursor, width: width()))
    }

    /// The prompt and `text` drawn again in place with the cursor after them, then a line
    /// break: the line as it stays on the screen, and the next output below it.
    private func redrawAtEnd(prompt: String, text: [Character]) -> String {
        let layout = LineLayout(prompt: prompt, text: text, cursor: text.count, width: width())
        let drawn = draw(layout)
        cursorRowDrawn = 0
        // At the start of an empty last row the cursor is already on a line of its own.
        return layout.rows.count > 1 && layout.cursorColumn == 0 ? drawn : drawn + "\r\n"
    }

    /// Moves up to the prompt's row, erases to the end of the screen, writes the rows and
    /// puts the cursor at its row and column.
    private func draw(_ layout: LineLayout) -> String {
        var output = "\r"
        if cursorRowDrawn > 0 { output += "\u{1B}[\(cursorRowDrawn)A" }
        output += "\u{1B}[J" + layout.rows.joined(separator: "\r\n")
        let up = layout.rows.count - 1 - layout.cursorRow
        if up > 0 { output += "\u{1B}[\(up)A" }
        output += "\r"
        if layout.cursorColumn > 0 { output += "\u{1B}[\(layout.cursorColumn)C" }
        cursorRowDrawn = layout.cursorRow
        return output
    }

    /// Completion candidates in columns across `width`, a line break after each row.
    static func columns(of candidates: [String], width: Int) -> String {
        let cell = (candidates.map { DisplayWidth.of($0) }.max() ?? 0) + 2
        let perRow = max(1, (width + 2) / cell)
        var output = ""
        for (index, candidate) in candidates.enumerated() {
            let last = index % perRow == perRow - 1 || index == candidates.count - 1
            output +=
                last
                ? candidate + "\r\n"
                : candidate + String(repeating: " ", count: cell - DisplayWidth.of(candidate))
        }
        return output
    }
}
