import Dispatch
import Foundation
import LineEditing
import Synchronization

/// The line editor, used from the reading thread only, one line at a time.
final class LockedEditor: Sendable {
    private let editor: Mutex<LineEditor>
    /// The editor's display, used from any thread (it has a lock of its own).
    let display: LineDisplay

    init(_ editor: sending LineEditor) {
        display = editor.display
        self.editor = Mutex(editor)
    }

    func readLine(prompt: String, completer: Completer) -> String? {
        editor.withLock {
            $0.readLine(
                prompt: prompt, complete: completer.complete, highlight: completer.highlight,
                redact: { Secrets.redacted($0, declarations: completer.declarations) })
        }
    }

    func readSecret(prompt: String) -> String? {
        editor.withLock { $0.readSecret(prompt: prompt) }
    }
}
