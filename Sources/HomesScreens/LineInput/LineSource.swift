import Dispatch
import Foundation
import LineEditing
import Synchronization

/// Where a session's lines come from: a piped script or a person at a terminal.
///
/// Reads happen off the main actor (a blocking read never holds it up); the session gets
/// each line back on the main actor.
@MainActor
package protocol LineSource {
    /// The next line, nil at end of input; `completer` says what Tab offers right now.
    func nextLine(completer: Completer) async -> String?
    /// A secret read without echo (never stored); nil when it cannot be read hidden.
    func readSecret(prompt: String) async -> String?
    /// The screen in front changed while a line is read: `completer` says what Tab offers
    /// and how the line is coloured from now on.
    func screenChanged(completer: Completer)
}

extension LineSource {
    /// Nothing to do: the source reads no line while the screen changes.
    package func screenChanged(completer: Completer) {}
}
