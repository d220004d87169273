import Dispatch
import Foundation
import LineEditing
import Synchronization

/// Lines from a script: `read` is called once per line, off the main actor.
package struct PipedLines: LineSource {
    private let reader: LineReader

    /// Lines that `read` returns, nil at the end.
    package init(_ read: @escaping @Sendable () -> String?) {
        reader = LineReader(read)
    }

    package func nextLine(completer: Completer) async -> String? {
        await reader.next()
    }

    /// Nothing typed in a script is hidden.
    package func readSecret(prompt: String) async -> String? {
        nil
    }
}
