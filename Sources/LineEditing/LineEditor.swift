import Signals

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads lines from a terminal with readline's editing keys, history, reverse search and
/// completion, written here instead of linking a GPL library.
///
/// The terminal is held raw only while a line is read. The keys of each read are applied
/// to the line (a run of typed characters, a paste, as one edit), then what changed is
/// drawn in one write by a `LineView`: from the first changed character on, so a key
/// costs what it changes, not the line's length. The width is asked of the terminal at
/// each change, so a resize is picked up at the next key.
/// When the input is not a terminal, lines are read as they come, with no prompt.
public final class LineEditor {
    private let history: LineHistory
    private let input: Int32
    private let columns: (@Sendable () -> Int)?
    private var decoder = KeyDecoder()
    /// Keys read after the end of a line, for the next one.
    private var typedAhead: [Key] = []
    /// Bytes read after the end of a line when the input is not a terminal.
    private var unreadBytes: [UInt8] = []
    /// A list of completions too long for the terminal, being asked about or paged.
    private var listing: CompletionListing?
    /// The rows the line is drawn on, shared with threads that write around it: its
    /// controller turns keys into the line's state and view model and draws what changed.
    public let display: LineDisplay
    /// Whether the line is shown with colours and suggestions.
    private let colors: Bool

    /// How long to wait for the rest of an escape sequence before taking ESC as Escape.
    private static let escapeTimeoutMilliseconds: Int32 = 100
    private static let bracketedPasteOn = "\u{1B}[?2004h"
    private static let bracketedPasteOff = "\u{1B}[?2004l"

    /// An editor reading keys from `input`, keeping lines in `history` (in memory when nil)
    /// and writing its echo with `write`, each redraw in one call.
    ///
    /// `columns` gives the terminal's width; by default it is asked of `input` (then of
    /// standard output) at each redraw, 80 when neither knows. With `colors` (a colour
    /// terminal), the line is highlighted and a suggestion shown after it.
    public init(
        history: LineHistory? = nil, input: Int32 = STDIN_FILENO, columns: (@Sendable () -> Int)? = nil,
        colors: Bool = false, write: @escaping (String) -> Void
    ) {
        self.history = history ?? LineHistory(fileURL: nil)
        self.input = input
        self.columns = columns
        self.colors = colors
        display = LineDisplay(width: { Self.width(of: input, columns: columns) }, write: write)
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
    /// On a colour terminal `highlight` colours the line after each key (see
    /// `EditorScreen.highlight`).
    ///
    /// `redact` returns the form of a submitted line that may be shown and remembered when
    /// the line carries a secret (e.g. "password hunter22" -> "password •••"), or nil when it
    /// carries none: the echoed line is then rewritten in that form and not added to history.
    public func readLine(
        prompt: String, complete: @escaping @Sendable (String) -> [String] = { _ in [] },
        highlight: @escaping @Sendable (String) -> [HighlightSpan] = { _ in [] },
        redact: (String) -> String? = { _ in nil }
    ) -> String? {
        guard let rawMode = RawMode(input) else { return readPlainLine() }
        defer { rawMode.settle() }
        var screen = EditorScreen(colors: colors, completions: complete, highlight: highlight)
        let entries = history.entries
        listing = nil
        display.withEditor { controller, write, isEditing in
            // What runs meanwhile stays shown.
            screen.status = controller.screen.value.status
            controller.screen.value = screen
            controller.begin(prompt: prompt, history: entries)
            write(Self.bracketedPasteOn + controller.takeOutput())
            isEditing = true
        }
        while true {
            let read = nextKeys()
            let interruption = display.interruptionForWork()
            // Called after the display's lock: stopping the work may clear its status or
            // write a line, which take that lock.
            var interrupts = 0
            let ended: (outcome: LineBuffer.Outcome, shown: LineText)? = display.withEditor {
                controller, write, isEditing in
                guard let read else {
                    isEditing = false
                    return (.ended, controller.state.value.buffer.text)
                }
                let keys = Self.coalesced(read)
                for (index, key) in keys.enumerated() {
                    if key == .control("c"), controller.screen.value.status != nil, interruption != nil {
                        // Work runs: Ctrl-C stops it, the line stays.
                        interrupts += 1
                        continue
                    }
                    if var shown = listing {
                        // The list's question or pager takes the key.
                        let done = shown.answer(key, height: height(), write: controller.write)
                        listing = done ? nil : shown
                        if done { controller.redraw() }
                        continue
                    }
                    let shown = controller.state.value.buffer.text
                    let outcome = controller.apply(key)
                    switch outcome {
                    case .editing, .bell:
                        continue
                    case .clearScreen:
                        controller.write("\u{1B}[H\u{1B}[2J")
                        controller.forget()
                        controller.redraw()
                    case .listCompletions(let candidates):
                        controller.finish(controller.viewModel.value)
                        var shown = CompletionListing(candidates, width: width())
                        if shown.start(height: height(), write: controller.write) {
                            controller.redraw()
                        } else {
                            listing = shown
                        }
                    case .submitted, .cancelled, .ended:
                        typedAhead = Array(keys[(index + 1)...])
                        isEditing = false
                        return (outcome, shown)
                    }
                }
                write(controller.takeOutput())
                return nil
            }
            for _ in 0..<interrupts { interruption?() }
            guard let ended else { continue }
            if read == nil {
                display.withEditor { controller, write, _ in
                    controller.finish(controller.viewModel.value)
                    write(controller.takeOutput() + Self.bracketedPasteOff)
                }
                return nil
            }
            return finish(ended.outcome, shown: ended.shown, prompt: prompt, redact: redact)
        }
    }

    /// `keys` with each run of typed characters (keys read in one go: a paste the terminal
    /// did not bracket, or fast typing) made one paste, applied as one edit.
    static func coalesced(_ keys: [Key]) -> [Key] {
        var result: [Key] = []
        var run = ""
        var runLength = 0
        func endRun() {
            if runLength == 1, let character = run.first { result.append(.character(character)) }
            if runLength > 1 { result.append(.paste(run)) }
            run = ""
            runLength = 0
        }
        for key in keys {
            if case .character(let character) = key {
                run.append(character)
                runLength += 1
            } else {
                endRun()
                result.append(key)
            }
        }
        endRun()
        return result
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

    private func write(_ text: String) {
        display.withEditor { _, write, _ in write(text) }
    }

    private func width() -> Int {
        Self.width(of: input, columns: columns)
    }

    /// The terminal's rows, 24 when it does not say.
    private func height() -> Int {
        var size = winsize()
        guard ioctl(input, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return 24 }
        return Int(size.ws_row)
    }

    private static func width(of input: Int32, columns: (@Sendable () -> Int)?) -> Int {
        if let columns { return max(1, columns()) }
        return terminalColumns(of: input) ?? terminalColumns(of: STDOUT_FILENO) ?? 80
    }

    /// Ends the line that `outcome` ended (`shown` is the text before the last key): draws
    /// it one last time, as it is to stay on the screen, and returns what `readLine` returns.
    private func finish(
        _ outcome: LineBuffer.Outcome, shown: LineText, prompt: String, redact: (String) -> String?
    ) -> String? {
        let result: String?
        var final = shown
        switch outcome {
        case .submitted(let line):
            if let redacted = redact(line) {
                final = LineText(redacted)
            } else {
                final = LineText(line)
                history.add(line)
            }
            result = line
        case .cancelled:
            final.append(contentsOf: ["^", "C"])
            result = ""
        default:
            result = nil
        }
        display.withEditor { controller, write, _ in
            controller.finish(EditorViewModel(prompt: prompt, text: final, cursor: final.count))
            write(controller.takeOutput() + Self.bracketedPasteOff)
        }
        return result
    }

    /// Completion candidates in columns across `width`, a line break after each row.
    static func columns(of candidates: [String], width: Int) -> String {
        CompletionListing.rows(of: candidates, width: width).map { $0 + "\r\n" }.joined()
    }
}
