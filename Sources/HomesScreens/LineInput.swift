import Dispatch
import Synchronization

/// Serializes writes to the output, which come from the main actor and the line
/// editor's thread.
final class OutputLock: Sendable {
    private let lock = Mutex(())

    func withLock(_ body: () -> Void) {
        lock.withLock { _ in body() }
    }

    /// `write` made safe to call from several threads at once, with error lines in red
    /// when `colors` (a colour terminal; never with NO_COLOR, TERM=dumb or in a pipe).
    static func serializing(_ write: @escaping @Sendable (String) -> Void, colors: Bool) -> @Sendable (String) -> Void {
        let output = OutputLock()
        return { text in
            let shown = colors && text.hasPrefix("error: ") ? "\u{1B}[31m" + text.dropLast() + "\u{1B}[0m\n" : text
            output.withLock { write(shown) }
        }
    }
}

/// The line editor, used from the reading thread only, one line at a time.
final class LockedEditor: Sendable {
    private let editor: Mutex<LineEditor>

    init(_ editor: sending LineEditor) {
        self.editor = Mutex(editor)
    }

    func readLine(prompt: String) -> String? {
        editor.withLock { $0.readLine(prompt: prompt) }
    }
}

/// Reads lines off the main actor: each `next()` runs one blocking read on a queue of
/// its own and resumes the caller with the line (nil at end of input).
final class LineReader: Sendable {
    private let queue = DispatchQueue(label: "homes.input")
    private let read: @Sendable () -> String?

    init(_ read: @escaping @Sendable () -> String?) {
        self.read = read
    }

    func next() async -> String? {
        await withCheckedContinuation { continuation in
            queue.async { [read] in continuation.resume(returning: read()) }
        }
    }
}
