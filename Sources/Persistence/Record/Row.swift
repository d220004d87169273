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
    // Two parallel arrays, looked up by scanning: rows have a few columns, and the rows
    // of one query share its array of names, so each costs one array of values.
    /// The names, in the order they were first set; no two hold the same bytes.
    @usableFromInline private(set) var names: [String]
    /// The value of each name.
    @usableFromInline private(set) var values: [SQLiteValue]
    /// How the rows of one fetch decode: set by the fetch on the rows it hands to
    /// `Record.init(row:)`, cleared by any change. Not part of the row's value.
    @usableFromInline private(set) var plan: RowDecoder.Plan?

    /// An empty row.
    public init() {
        names = []
        values = []
    }

    /// A row of these columns and values; a column named twice keeps its last value.
    public init(dictionaryLiteral elements: (String, SQLiteValue)...) {
        names = elements.map(\.0)
        values = elements.map(\.1)
        for later in names.indices {
            for earlier in 0..<later where ExactText.same(names[earlier], names[later]) {
                // A name given twice: rebuilt one by one, each keeping its last value.
                names = []
                values = []
                for (column, value) in elements { self[column] = value }
                return
            }
        }
    }

    /// A row of `names` (no two the same bytes) and their `values`, taken as they are.
    init(uniqueNames names: [String], values: [SQLiteValue], plan: RowDecoder.Plan? = nil) {
        self.names = names
        self.values = values
        self.plan = plan
    }

    /// Replaces every value with `read(position)`, keeping the names; the storage is reused
    /// unless a copy of the row holds it. A plan that learns becomes its `next`.
    mutating func refill(_ read: (Int32) -> SQLiteValue) {
        if let plan, plan.fixed == nil { self.plan = plan.next }
        values.withUnsafeMutableBufferPointer { buffer in
            for position in buffer.indices { buffer[position] = read(Int32(position)) }
        }
    }

    /// The position of the column named exactly `column`, or nil.
    func index(of column: String) -> Int? {
        for index in names.indices where ExactText.same(names[index], column) { return index }
        return nil
    }

    /// Whether the row's names are exactly `names`, in order.
    func hasNames(_ other: [String]) -> Bool {
        guard other.count == names.count else { return false }
        for index in names.indices where !ExactText.same(names[index], other[index]) { return false }
        return true
    }

    /// The value of the column named exactly `column`, or nil; setting nil removes the column.
    public subscript(column: String) -> SQLiteValue? {
        get { index(of: column).map { values[$0] } }
        set {
            plan = nil
            let index = index(of: column)
            switch (index, newValue) {
            case (let index?, let value?): values[index] = value
            case (let index?, nil):
                names.remove(at: index)
                values.remove(at: index)
            case (nil, let value?):
                names.append(column)
                values.append(value)
            case (nil, nil): break
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
        return "[" + names.indices.map { "\"\(names[$0])\": \(values[$0])" }.joined(separator: ", ") + "]"
    }

    /// Whether both rows hold the same columns (by exact name) with the same values.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        guard lhs.names.count == rhs.names.count else { return false }
        // Names are unique within a row, so finding each of lhs's in rhs is set equality.
        for index in lhs.names.indices {
            guard let other = rhs.index(of: lhs.names[index]), rhs.values[other] == lhs.values[index] else {
                return false
            }
        }
        return true
    }

    /// Hashes the columns and values, in no particular order.
    public func hash(into hasher: inout Hasher) {
        // Order-independent, as a dictionary hashes: the columns' own hashes combined by xor.
        var combined = 0
        for index in names.indices {
            var column = Hasher()
            column.combine(ExactText(names[index]))
            column.combine(values[index])
            combined ^= column.finalize()
        }
        hasher.combine(names.count)
        hasher.combine(combined)
    }
}
