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
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    static func < (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        let utf8 = text.utf8
        hasher.combine(utf8.count)
        let hashed: Void? = utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            for byte in utf8 { hasher.combine(byte) }
        }
    }

    var description: String { text }
}
