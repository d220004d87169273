import Foundation
import Signals

/// The rows of the terminal the line editor draws on, shared by the thread that reads
/// keys and the threads that write around the line being edited: the responses of work in
/// flight, a screen laid out again after a resize.
///
/// Everything drawn goes through one lock, so what another thread writes never lands in
/// the middle of a key's redraw. While a line is being edited, a text written here goes
/// above it: the line's rows are erased, the text written, and the line drawn again
/// below with its cursor where it was, as fish and zsh do. Otherwise the text is written
/// as it is.
///
/// `@unchecked Sendable`: the controller and the writer it holds are not `Sendable`
/// (they are used from whichever thread draws), so every use of them, and of
/// `editing`, is under `lock`; nothing else is stored. (An `NSLock`: the thread sanitizer
/// on Linux does not see the ordering a contended `Mutex` gives, and the reading thread
/// and the main thread do contend here.)
public final class LineDisplay: @unchecked Sendable {
    private let lock = NSLock()
    private let controller: LineEditorController
    private let output: (String) -> Void
    private var editing = false
    private var interruption: (@Sendable () -> Void)?

    /// A display drawing at `width()` columns, writing with `write`.
    init(width: @escaping @Sendable () -> Int, write: @escaping (String) -> Void) {
        controller = LineEditorController(prompt: "", width: width)
        output = write
    }

    /// Whether a line is being edited (its prompt and text are on the screen).
    public var isEditing: Bool {
        lock.withLock { editing }
    }

    /// Writes `text` (whole rows, each ended by a line break) above the line being edited,
    /// then draws the line again below it; with `clearingScreen`, the screen is cleared
    /// first and `text` written from its top (a screen laid out again after a resize).
    /// Without a line being edited, `text` is written as it is.
    public func write(_ text: String, clearingScreen: Bool = false) {
        lock.withLock {
            let clear = clearingScreen ? "\u{1B}[H\u{1B}[2J" : ""
            guard editing else { return output(clear + text) }
            if clearingScreen { controller.forget() } else { controller.clear() }
            output(controller.takeOutput() + clear)
            // On its own: the writer may colour a text by how it starts (an error line).
            output(text)
            controller.redraw()
            output(controller.takeOutput())
        }
    }

    /// Shows `status` (what runs meanwhile) on a row above the line being edited, or takes
    /// it away (nil); without a line being edited it is written over the current row.
    public func setStatus(_ status: String?) {
        lock.withLock {
            controller.screen.value.status = status
            if editing {
                output(controller.takeOutput())
            } else {
                // Drawn again from scratch when a line begins.
                _ = controller.takeOutput()
                output("\r\u{1B}[K" + (status ?? ""))
            }
        }
    }

    /// The screen in front changed: the line being edited is coloured, suggested and
    /// completed for it from now on (`colors` stays as the editor was made).
    public func setScreen(
        completions: @escaping @Sendable (String) -> [String],
        highlight: @escaping @Sendable (String) -> [HighlightSpan]
    ) {
        lock.withLock {
            controller.screen.value.completions = completions
            controller.screen.value.highlight = highlight
            guard editing else { return }
            controller.refresh()
            output(controller.takeOutput())
        }
    }

    /// What Ctrl-C does while a status is shown (work runs): stop the work, the line being
    /// edited kept. Without one, or with no status, Ctrl-C drops the line.
    public func onInterrupt(_ interrupt: @escaping @Sendable () -> Void) {
        lock.withLock { interruption = interrupt }
    }

    /// What to call for Ctrl-C now, if it stops work rather than dropping the line.
    func interruptionForWork() -> (@Sendable () -> Void)? {
        lock.withLock { controller.screen.value.status == nil ? nil : interruption }
    }

    /// Runs `body` with the controller and the terminal's writer, under the lock: the
    /// editor's reading thread applies each read's keys this way.
    func withEditor<Result>(
        _ body: (LineEditorController, (String) -> Void, inout Bool) -> Result
    ) -> Result {
        lock.withLock { body(controller, output, &editing) }
    }
}
