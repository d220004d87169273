import Dispatch
import Foundation
import LineEditing
import Synchronization

/// Runs blocking reads off the main actor, one at a time, on a queue of its own.
final class LineReader: Sendable {
    private let queue = DispatchQueue(label: "homes.input")
    private let read: @Sendable () -> String?

    init(_ read: @escaping @Sendable () -> String?) {
        self.read = read
    }

    /// The result of `read` (by default the one given at init).
    func next(_ read: (@Sendable () -> String?)? = nil) async -> String? {
        let body = read ?? self.read
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
