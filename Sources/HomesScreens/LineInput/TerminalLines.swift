import Dispatch
import Foundation
import LineEditing
import Synchronization

/// Lines typed at a terminal, through the line editor: editing keys, history kept in
/// `$XDG_STATE_HOME/homes/history`, Tab completion, and secrets neither echoed nor kept.
package struct TerminalLines: LineSource {
    private let editor: LockedEditor
    private let reader = LineReader { nil }
    /// The rows the line is edited on: text written through it goes above the line.
    package var display: LineDisplay { editor.display }

    /// Lines read by a line editor that echoes with `write`; with `colors` (a colour
    /// terminal) it highlights the line and suggests the rest of it from the history.
    package init(colors: Bool = false, write: @escaping @Sendable (String) -> Void) {
        editor = LockedEditor(LineEditor(history: LineHistory(appName: "homes"), colors: colors, write: write))
    }

    package func nextLine(completer: Completer) async -> String? {
        let editor = self.editor
        return await reader.next { editor.readLine(prompt: "homes> ", completer: completer) }
    }

    /// The line being edited is coloured and completed for the screen in front from now on.
    package func screenChanged(completer: Completer) {
        display.setScreen(completions: completer.complete, highlight: completer.highlight)
    }

    package func readSecret(prompt: String) async -> String? {
        let editor = self.editor
        return await reader.next { editor.readSecret(prompt: prompt) }
    }
}
