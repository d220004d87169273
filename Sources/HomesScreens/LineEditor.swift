import Foundation
import Synchronization
import TextViews
#if canImport(Glibc)
import Glibc
#endif

/// What one key press asks of the line being edited.
public enum EditKey: Equatable, Sendable {
    case character(Character)
    case backspace, delete, left, right, home, end, up, down
    case enter, interrupt, endOfInput
}

/// The line being typed and the history: the editing rules without any terminal, so they
/// can be tested. Display widths keep the cursor right for CJK and emoji.
public struct LineBuffer: Sendable {
    /// The text typed so far.
    public private(set) var text: [Character] = []
    /// Where the cursor is, as an index into `text`.
    public private(set) var cursor = 0
    private var history: [String]
    private var historyIndex: Int
    private var draft: [Character] = []

    /// An empty line with `history`, oldest first.
    public init(history: [String] = []) {
        self.history = history
        historyIndex = history.count
    }

    /// What finished the line, if `key` did.
    public enum Outcome: Equatable, Sendable {
        case editing
        case submitted(String)
        case cancelled
        case ended
    }

    /// Applies `key`.
    public mutating func apply(_ key: EditKey) -> Outcome {
        switch key {
        case .character(let character):
            text.insert(character, at: cursor)
            cursor += 1
        case .backspace:
            if cursor > 0 {
                text.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < text.count { text.remove(at: cursor) }
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = text.count
        case .up:
            guard historyIndex > 0 else { break }
            if historyIndex == history.count { draft = text }
            historyIndex -= 1
            text = Array(history[historyIndex])
            cursor = text.count
        case .down:
            guard historyIndex < history.count else { break }
            historyIndex += 1
            text = historyIndex == history.count ? draft : Array(history[historyIndex])
            cursor = text.count
        case .enter:
            let line = String(text)
            if !line.trimmingCharacters(in: .whitespaces).isEmpty && history.last != line { history.append(line) }
            reset()
            return .submitted(line)
        case .interrupt:
            reset()
            return .cancelled
        case .endOfInput:
            if text.isEmpty { return .ended }
        }
        return .editing
    }

    /// The history, oldest first.
    public var entries: [String] { history }

    private mutating func reset() {
        text = []
        cursor = 0
        draft = []
        historyIndex = history.count
    }
}

/// Reads lines from a terminal with editing and history (arrows, Home/End, Ctrl-A/E,
/// Backspace/Delete, Ctrl-C, Ctrl-D), written here instead of linking a GPL library.
public final class LineEditor {
    private var buffer = LineBuffer()
    private let input = FileHandle.standardInput
    private let write: (String) -> Void

    /// An editor writing its echo with `write`.
    public init(write: @escaping (String) -> Void) {
        self.write = write
    }

    /// Reads one line after showing `prompt`; nil at end of input.
    public func readLine(prompt: String) -> String? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return Swift.readLine() }
        TerminalRestorer.save()
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &original) }
        redraw(prompt)
        var pending: [UInt8] = []
        while true {
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { return nil }
            pending.append(byte)
            guard let key = Self.decode(&pending) else { continue }
            switch buffer.apply(key) {
            case .editing:
                redraw(prompt)
            case .submitted(let line):
                write("\n")
                return line
            case .cancelled:
                write("^C\n")
                return ""
            case .ended:
                write("\n")
                return nil
            }
        }
    }

    private func redraw(_ prompt: String) {
        let text = String(buffer.text)
        let after = String(buffer.text[buffer.cursor...])
        let back = after.reduce(0) { $0 + DisplayText.width(of: $1) }
        write("\r\u{1B}[K" + prompt + text + (back > 0 ? "\u{1B}[\(back)D" : ""))
    }

    /// Turns the bytes read so far into a key, or nil while a sequence is incomplete (or
    /// after dropping one it does not know).
    static func decode(_ bytes: inout [UInt8]) -> EditKey? {
        guard let first = bytes.first else { return nil }
        func take(_ count: Int, _ key: EditKey?) -> EditKey? {
            bytes.removeFirst(min(count, bytes.count))
            return key
        }
        switch first {
        case 0x0D, 0x0A: return take(1, .enter)
        case 0x7F, 0x08: return take(1, .backspace)
        case 0x01: return take(1, .home)
        case 0x05: return take(1, .end)
        case 0x03: return take(1, .interrupt)
        case 0x04: return take(1, .endOfInput)
        case 0x1B:
            guard bytes.count >= 2 else { return nil }
            // Only CSI sequences (ESC [ ... final) are keys; a lone ESC is dropped alone,
            // so what follows it is still typed.
            guard bytes[1] == UInt8(ascii: "[") else { return take(1, nil) }
            guard let end = bytes.dropFirst(2).firstIndex(where: { (0x40...0x7E).contains($0) }) else {
                return bytes.count > 16 ? take(bytes.count, nil) : nil
            }
            let sequence = Array(bytes[2...end])
            let key: EditKey?
            switch sequence {
            case [UInt8(ascii: "A")]: key = .up
            case [UInt8(ascii: "B")]: key = .down
            case [UInt8(ascii: "C")]: key = .right
            case [UInt8(ascii: "D")]: key = .left
            case [UInt8(ascii: "H")], Array("1~".utf8): key = .home
            case [UInt8(ascii: "F")], Array("4~".utf8): key = .end
            case Array("3~".utf8): key = .delete
            default: key = nil
            }
            return take(end + 1, key)
        case 0x00..<0x20:
            return take(1, nil)
        default:
            // A UTF-8 character: wait for all its bytes.
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes.prefix(length), as: UTF8.self)
            return take(length, text.first.map(EditKey.character))
        }
    }
}

/// Puts the terminal back as it was: when the app leaves on SIGTERM or SIGHUP
/// (`restore()`), and if the process is stopped by a fatal signal while the line editor
/// holds it raw (restoring is async-signal-safe), before the signal proceeds.
public enum TerminalRestorer {
    /// The settings the terminal had when first asked for: read once, before any change,
    /// and never written again, so the signal handlers read it without a lock.
    private static let original: termios = {
        var settings = termios()
        tcgetattr(STDIN_FILENO, &settings)
        return settings
    }()
    private static let installed = Atomic(false)

    /// Remembers the terminal's settings (the first call only) and installs the handlers
    /// that restore them on a fatal signal.
    static func save() {
        _ = original
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for signal in [SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP] {
            Glibc.signal(signal) { number in
                var settings = TerminalRestorer.original
                tcsetattr(STDIN_FILENO, TCSANOW, &settings)
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Restores the terminal settings the line editor found, if it ever changed them.
    public static func restore() {
        guard installed.load(ordering: .acquiring) else { return }
        var settings = original
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
