/// Text killed (cut) from the line, newest last, for yanking (pasting) back.
///
/// Kills made one right after another grow the same entry, as in readline: a kill forward
/// (Ctrl-K, Alt-D) adds at its end, a kill backward (Ctrl-U, Ctrl-W, Alt-Backspace) at its
/// start, so yanking gives back the text in the order it stood.
public struct KillRing: Sendable, Equatable {
    /// The entries, oldest first.
    public private(set) var entries: [String] = []
    /// How many entries are kept.
    public let capacity: Int

    /// An empty ring keeping up to `capacity` entries.
    public init(capacity: Int = 32) {
        self.capacity = max(1, capacity)
    }

    /// Which way the text was killed from the cursor.
    public enum Direction: Sendable {
        /// From the cursor to the right: grows an entry at its end.
        case forward
        /// From the left up to the cursor: grows an entry at its start.
        case backward
    }

    /// Adds `text`: to the newest entry when `appending` (the previous key killed too),
    /// else as a new entry. Empty text adds nothing.
    public mutating func kill(_ text: String, _ direction: Direction, appending: Bool) {
        guard !text.isEmpty else { return }
        if appending, let last = entries.last {
            entries[entries.count - 1] = direction == .forward ? last + text : text + last
            return
        }
        entries.append(text)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    /// The entry `back` places before the newest (0 for the newest), cycling through the ring.
    public func entry(back: Int) -> String? {
        guard !entries.isEmpty else { return nil }
        let count = entries.count
        return entries[((count - 1 - back) % count + count) % count]
    }

    /// The newest entry, what Ctrl-Y yanks.
    public var latest: String? { entries.last }
}
