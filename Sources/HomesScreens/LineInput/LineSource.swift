import Dispatch
import LineEditing
import Synchronization

/// Where a session's lines come from, a piped script or a person at the line editor: the
/// one type between the editor and the session.
///
/// Lines are read on a queue of its own, one at a time, so a blocking read never holds up
/// the main actor; each comes back on it. On a terminal the next line is read ahead while
/// the last line's work settles (`start`): the prompt stays live meanwhile, and the line
/// being read is told when the screen in front changes (its colours and Tab).
@MainActor
package final class LineSource {
    /// The rows the line is edited on, nil for a script.
    private let display: LineDisplay?
    private nonisolated let queue = DispatchQueue(label: "homes.input")
    /// The line editor, used on `queue` only, one line at a time (the lock hands it, not
    /// Sendable itself, to that queue); nil for a script.
    private nonisolated let editor: Mutex<LineEditor?>
    /// A script's next line, nil at its end; nil at a terminal.
    private nonisolated let script: (@Sendable () -> String?)?
    /// The line being read, ahead or now.
    private var reading: Task<String?, Never>?

    private init(editor: sending LineEditor?, script: (@Sendable () -> String?)?) {
        display = editor?.display
        self.editor = Mutex(editor)
        self.script = script
    }

    /// Lines of a script: `read` is called once per line, off the main actor; nil ends it.
    package static func piped(_ read: @escaping @Sendable () -> String?) -> LineSource {
        LineSource(editor: nil, script: read)
    }

    /// Lines typed at a terminal, through `editor`: editing keys, history, Tab
    /// completion, and secrets neither echoed nor kept.
    static func terminal(_ editor: sending LineEditor) -> LineSource {
        LineSource(editor: editor, script: nil)
    }

    /// Starts reading the next line, with what Tab offers now, unless one is being read.
    func start(_ completer: () -> Completer) {
        guard reading == nil else { return }
        let completer = completer()
        reading = Task { await self.offMainActor { [self] in self.readLine(completer) } }
    }

    /// The next line: the one being read ahead, or one read now; nil at the end.
    func next(_ completer: () -> Completer) async -> String? {
        start(completer)
        let line = await reading?.value
        reading = nil
        return line
    }

    /// Tells a line being read that the screen in front changed: it is coloured and
    /// completed for that screen from now on.
    func screenChanged(_ completer: () -> Completer) {
        guard reading != nil, let display else { return }
        let completer = completer()
        display.setScreen(completions: completer.complete, highlight: completer.highlight)
    }

    /// A secret read without echo (never stored); nil when it cannot be read hidden:
    /// nothing typed in a script is.
    func readSecret(prompt: String) async -> String? {
        guard script == nil else { return nil }
        return await offMainActor { [self] in editor.withLock { $0?.readSecret(prompt: prompt) } }
    }

    /// The script's next line, or the line typed at the editor (on `queue`).
    private nonisolated func readLine(_ completer: Completer) -> String? {
        if let script { return script() }
        return editor.withLock {
            $0?.readLine(
                prompt: "homes> ", complete: completer.complete, highlight: completer.highlight,
                redact: { Secrets.redacted($0, declarations: completer.declarations) })
        }
    }

    /// The result of `body`, run on `queue`, one read at a time.
    private nonisolated func offMainActor(_ body: @escaping @Sendable () -> String?) async -> String? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
