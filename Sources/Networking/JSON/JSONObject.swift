/// The members of a JSON object, by name.
///
/// Names compare by their Unicode scalars, as RFC 8259 compares them: `café` spelt with
/// U+00E9 and `cafe` followed by U+0301 are two members, each found only by its own
/// spelling (Swift's `String` equality would merge them and lose one). A name that comes
/// twice with the same scalars keeps its last value, in parsed text as in a literal.
///
/// ```swift
/// var listing: JSONObject = ["id": 7, "name": "Loft"]
/// listing["rooms"] = 2
/// let name = listing["name"]?.stringValue
/// ```
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    private var members: [Name: JSONValue] = [:]

    /// An empty object.
    public init() {}

    /// An object of these members.
    ///
    /// A name given twice keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(members: elements)
    }

    init(members: [(String, JSONValue)]) {
        // Sized once: growing a dictionary member by member rehashes it at every doubling.
        self.members = Dictionary(minimumCapacity: members.count)
        for (name, value) in members { self.members[Name(name)] = value }
    }

    /// The value of the member named exactly `name`, scalar by scalar, or nil.
    ///
    /// Setting nil removes the member.
    public subscript(name: String) -> JSONValue? {
        get { members[Name(name)] }
        set { members[Name(name)] = newValue }
    }

    /// The member names, in the order of their Unicode scalars.
    ///
    /// It is the order ``JSONValue/encoded()`` writes them in.
    public var names: [String] { members.keys.sorted().map(\.text) }

    /// The members in the order of their names' Unicode scalars.
    var sortedMembers: [(name: String, value: JSONValue)] {
        members.sorted { $0.key < $1.key }.map { ($0.key.text, $0.value) }
    }

    /// A member name, equal to another only when their Unicode scalars are the same.
    private struct Name: Hashable, Comparable {
        let text: String

        init(_ text: String) {
            self.text = text
        }

        // The scalars are the same exactly when their UTF-8 encodings are, and UTF-8
        // orders like the scalars it encodes.
        static func == (lhs: Name, rhs: Name) -> Bool {
            let same = lhs.text.utf8.withContiguousStorageIfAvailable { left in
                rhs.text.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
            }
            return (same ?? nil) ?? lhs.text.utf8.elementsEqual(rhs.text.utf8)
        }

        static func < (lhs: Name, rhs: Name) -> Bool {
            lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
        }

        func hash(into hasher: inout Hasher) {
            // All the bytes at once: one byte at a time costs a hasher call per byte.
            let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
                hasher.combine(bytes: UnsafeRawBufferPointer($0))
            }
            if hashed == nil { Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
        }
    }
}
