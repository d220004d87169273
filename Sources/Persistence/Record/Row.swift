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
    /// The names, in the order they were first set.
    private var names: [String] = []
    private var values: [ExactText: SQLiteValue] = [:]

    /// An empty row.
    public init() {}

    /// A row of these columns and values; a column named twice keeps its last value.
    public init(dictionaryLiteral elements: (String, SQLiteValue)...) {
        for (column, value) in elements { self[column] = value }
    }

    /// The value of the column named exactly `column`, or nil; setting nil removes the column.
    public subscript(column: String) -> SQLiteValue? {
        get { values[ExactText(column)] }
        set {
            let key = ExactText(column)
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil { names.append(column) }
            } else if values.removeValue(forKey: key) != nil {
                names.removeAll { ExactText($0) == key }
            }
        }
    }

    /// The column names, in the order they were first set (for a fetched row, the query's).
    public var columns: [String] { names }

    /// Whether the row has no columns.
    public var isEmpty: Bool { names.isEmpty }

    /// The columns and values, for messages.
    public var description: String {
        guard !names.isEmpty else { return "[:]" }
        return "[" + names.map { "\"\($0)\": \(values[ExactText($0)] ?? .null)" }.joined(separator: ", ") + "]"
    }

    /// Whether both rows hold the same columns (by exact name) with the same values.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.values == rhs.values
    }

    /// Hashes the columns and values, in no particular order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }
}
