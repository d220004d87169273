import Foundation
import Synchronization

/// What a child process writes, read on a thread of its own; tests wait for what they
/// expect to appear, woken at each write (never by polling).
final class WatchedOutput: Sendable {
    private let storage = Mutex("")
    private let arrived = NSCondition()
    private let started = ContinuousClock.now
    /// Each piece read, with the seconds since the start it came at (for a recording).
    private let pieces = Mutex<[(seconds: Double, text: String)]>([])

    /// Starts reading `handle` until its end.
    func read(from handle: FileHandle) {
        handle.readabilityHandler = { [self] handle in
            let data = handle.availableData
            guard !data.isEmpty else { return handle.readabilityHandler = nil }
            let text = String(decoding: data, as: UTF8.self)
            storage.withLock { $0 += text }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            pieces.withLock { $0.append((seconds, text)) }
            arrived.lock()
            arrived.broadcast()
            arrived.unlock()
        }
    }

    /// Stops reading `handle` and closes its descriptor once a read under way has ended:
    /// the close runs on the queue the readability handler runs on. A handler cleared and
    /// the descriptor closed from here could let a read already started take the output of
    /// whatever is given that number next, such as another test's pipe.
    static func stopReading(_ handle: FileHandle) {
        try? handle.close()
    }

    /// Everything read so far.
    var text: String { storage.withLock { $0 } }

    /// Everything read so far, piece by piece, with when each came.
    var timed: [(seconds: Double, text: String)] { pieces.withLock { $0 } }

    /// Waits until `condition` holds for the text (at most `seconds`); whether it does.
    func waitUntil(seconds: Double = 20, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        arrived.lock()
        defer { arrived.unlock() }
        while !condition(text) {
            guard arrived.wait(until: deadline) else { return false }
        }
        return true
    }
}
