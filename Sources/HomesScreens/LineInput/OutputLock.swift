import Dispatch
import Foundation
import LineEditing
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
