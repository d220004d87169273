import Dispatch
import Foundation
import LineEditing
import Synchronization

/// Lines from a script: `read` is called once per line, off the main actor.
public struct PipedLines: LineSource {
    private let reader: LineReader

    /// Lines that `read` returns, nil at the end.
    public init(_ read: @escaping @Sendable () -> String?) {
        reader = LineReader(read)
    }

    public func nextLine(completer: Completer) async -> String? {
        await reader.next()
    }

    /// Nothing typed in a script is hidden.
    public func readSecret(prompt: String) async -> String? {
        nil
    }
}
