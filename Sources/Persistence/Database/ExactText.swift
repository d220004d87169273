import Foundation

/// Text that compares, hashes and sorts by its exact UTF-8 bytes, as SQLite compares SQL
/// text and identifiers.
///
/// `String` equality merges canonically equivalent text: `café` spelt with U+00E9 equals
/// `cafe` followed by U+0301. To SQLite those are two different statements, table names or
/// column names, so every cache and lookup keyed by SQL text or a name uses this instead.
struct ExactText: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The text.
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        same(lhs.text, rhs.text)
    }

    static func < (lhs: ExactText, rhs: ExactText) -> Bool {
        precedes(lhs.text, rhs.text)
    }

    /// Whether `lhs` and `rhs` hold the same UTF-8 bytes.
    @inline(__always)
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        // The same representation holds the same bytes: a short string keeps its bytes in
        // it, a long one points at them. A name spelt by a literal and the same name read
        // from SQLite are the same short string, so most matches end here.
        if MemoryLayout<String>.size == MemoryLayout<(UInt, UInt)>.size,
            unsafeBitCast(lhs, to: (UInt, UInt).self) == unsafeBitCast(rhs, to: (UInt, UInt).self)
        {
            return true
        }
        // Native strings know their UTF-8 length and lend their bytes without copying.
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                // Names are short: a loop beats calling memcmp.
                guard left.count > 16 else {
                    for index in 0..<left.count where left[index] != right[index] { return false }
                    return true
                }
                guard let leftBytes = left.baseAddress, let rightBytes = right.baseAddress else { return true }
                return memcmp(leftBytes, rightBytes, left.count) == 0
            }
        }
        return (compared ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// Whether `lhs` sorts before `rhs` by UTF-8 bytes.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                var order: Int32 = 0
                if let leftBytes = left.baseAddress, let rightBytes = right.baseAddress {
                    order = memcmp(leftBytes, rightBytes, min(left.count, right.count))
                }
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
        return (compared ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }

    var description: String { text }
}
