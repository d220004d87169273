import Foundation

/// One row: column name to value.
///
/// Column names compare by their exact UTF-8 bytes, as SQLite compares them: `café` spelt
/// with U+00E9 and `cafe` followed by U+0301 are two columns, each with its own value.
/// Setting a column that is already there replaces its value (a query naming one column
/// twice keeps the last). Rows are equal when they hold the same columns with the same
/// values, in any order.
///
/// ```swift
/// var row: Row = ["title": "Loft", "price": 2_500]
/// row["rooms"] = 2
/// let title = row["title"]?.stringValue
/// ```
public struct Row: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    // One array of pairs, looked up by scanning: rows have a few columns, so making one
    // costs one allocation (a literal's own array is kept as it is).
    /// The columns in the order they were first set; no two names hold the same bytes.
    private(set) var pairs: [(String, SQLiteValue)]

    /// An empty row.
    public init() {
        pairs = []
    }

    /// A row of these columns and values; a column named twice keeps its last value.
    public init(dictionaryLiteral elements: (String, SQLiteValue)...) {
        let unique = elements.indices.allSatisfy { index in
            !elements[..<index].contains { ExactText.same($0.0, elements[index].0) }
        }
        if unique {
            pairs = elements
            return
        }
        pairs = []
        for (column, value) in elements { self[column] = value }
    }

    /// A row of `pairs` whose names are unique, taken as they are.
    init(uniquePairs pairs: [(String, SQLiteValue)]) {
        self.pairs = pairs
    }

    /// The position of the column named exactly `column`, or nil.
    func index(of column: String) -> Int? {
        pairs.firstIndex { ExactText.same($0.0, column) }
    }

    /// The value of the column named exactly `column`, or nil; setting nil removes the column.
    public subscript(column: String) -> SQLiteValue? {
        get { index(of: column).map { pairs[$0].1 } }
        set {
            let index = index(of: column)
            switch (index, newValue) {
            case let (index?, value?): pairs[index].1 = value
            case let (index?, nil): pairs.remove(at: index)
            case let (nil, value?): pairs.append((column, value))
            case (nil, nil): break
            }
        }
    }

    /// The column names, in the order they were first set (for a fetched row, the query's).
    public var columns: [String] { pairs.map { $0.0 } }

    /// Whether the row has no columns.
    public var isEmpty: Bool { pairs.isEmpty }

    /// The columns and values, for messages.
    public var description: String {
        guard !pairs.isEmpty else { return "[:]" }
        return "[" + pairs.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "]"
    }

    /// Whether both rows hold the same columns (by exact name) with the same values.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        guard lhs.pairs.count == rhs.pairs.count else { return false }
        // Names are unique within a row, so finding each of lhs's in rhs is set equality.
        for (name, value) in lhs.pairs {
            guard let other = rhs.index(of: name), rhs.pairs[other].1 == value else { return false }
        }
        return true
    }

    /// Hashes the columns and values, in no particular order.
    public func hash(into hasher: inout Hasher) {
        // Order-independent, as a dictionary hashes: the columns' own hashes combined by xor.
        var combined = 0
        for (name, value) in pairs {
            var column = Hasher()
            column.combine(ExactText(name))
            column.combine(value)
            combined ^= column.finalize()
        }
        hasher.combine(pairs.count)
        hasher.combine(combined)
    }
}
