/// The rest of the newest history entry that starts with the line, found again after each
/// key at the cost of what the key changed, not of the line's length.
///
/// It keeps, for each length of the line's start it has matched, the entries that start
/// with it (newest first) and how many UTF-8 bytes that start takes. A key that types at
/// the end narrows the last set by the bytes of the character typed; a key that changes
/// the line earlier drops the sets past the change and narrows again from there. Once no
/// entry is left, nothing more is read, so typing on past every entry costs nothing here,
/// and the sets never outgrow the longest entry (`LineHistory.maximumLineLength`).
///
/// Entries are compared byte for byte (no canonical equivalence), and a match must end
/// between two characters of the entry: an accent typed as its own character never
/// suggests the rest of an entry whose `e` it would join.
public struct HistorySuggestion: Sendable {
    /// The history searched, oldest first.
    public private(set) var history: [String]

    /// The entries starting with the first characters of `matched` (as many as the level's
    /// place among the levels), newest first, and how many bytes those characters take.
    private struct Level: Sendable {
        let bytes: Int
        let candidates: [Int]
    }

    /// Levels that are no longer the newest, in immutable blocks linked to the block
    /// before: a version of the state kept by a property shares them with the next, so a
    /// key copies at most one block, and the chain stays short enough to free without
    /// deep recursion.
    private final class Block: Sendable {
        static let capacity = 64
        let levels: [Level]
        let before: Block?
        /// How many levels this block and those before it hold.
        let count: Int

        init(levels: [Level], before: Block?) {
            self.levels = levels
            self.before = before
            count = (before?.count ?? 0) + levels.count
        }
    }

    /// The newest levels, the last that of the longest start of `matched` matched so far.
    private var recent: [Level]
    private var blocks: Block?
    /// The level of the longest start matched: its length in characters is `depth`.
    private var level: Level { recent.last ?? blocks?.levels.last ?? Level(bytes: 0, candidates: []) }
    private var depth: Int { (blocks?.count ?? 0) + recent.count - 1 }
    /// The line the levels were computed for (its start, as far as the levels reach).
    private var matched = LineText()

    /// Suggestions from `history` (oldest first).
    public init(history: [String]) {
        self.history = history
        recent = [Level(bytes: 0, candidates: Array(history.indices.reversed()))]
    }

    /// Brings the sets up to `text`: from its first difference with the line before on.
    public mutating func update(to text: LineText) {
        guard !history.isEmpty else { return }
        let unchanged = text.firstDifference(from: matched) ?? text.count
        while depth > unchanged {
            if recent.isEmpty, let block = blocks {
                recent = block.levels
                blocks = block.before
            }
            recent.removeLast()
        }
        matched = text
        var characters = text.makeIterator(from: depth)
        while !level.candidates.isEmpty, let character = characters.next() {
            let next = narrowed(level, by: character)
            if recent.count == Block.capacity {
                blocks = Block(levels: recent, before: blocks)
                recent = []
            }
            recent.append(next)
        }
    }

    /// The rest of the newest entry that starts with the line given to `update(to:)`, ""
    /// for none (an empty line gets none).
    public var suggestion: String {
        guard depth == matched.count, !matched.isEmpty else { return "" }
        let level = self.level
        for candidate in level.candidates {
            let entry = history[candidate]
            guard entry.utf8.count > level.bytes,
                let start = entry.utf8.index(entry.utf8.startIndex, offsetBy: level.bytes).samePosition(in: entry)
            else { continue }
            return String(entry[start...])
        }
        return ""
    }

    /// The candidates of `level` whose next bytes are those of `character`.
    private func narrowed(_ level: Level, by character: Character) -> Level {
        let bytes = Array(character.utf8)
        let candidates = level.candidates.filter { Self.entry(history[$0], has: bytes, at: level.bytes) }
        return Level(bytes: level.bytes + bytes.count, candidates: candidates)
    }

    /// Whether `entry`'s UTF-8 holds `bytes` at `offset`.
    private static func entry(_ entry: String, has bytes: [UInt8], at offset: Int) -> Bool {
        let found = entry.utf8.withContiguousStorageIfAvailable { stored -> Bool in
            guard offset + bytes.count <= stored.count else { return false }
            for (index, byte) in bytes.enumerated() where stored[offset + index] != byte { return false }
            return true
        }
        return found ?? entry.utf8.dropFirst(offset).starts(with: bytes)
    }
}
