/// A titled table with a status line and a footer.
public final class TableView: TextView {
    /// The title line.
    public var title = ""
    /// The column headings.
    public var headings: [String] = []
    /// The rows, one string per column.
    public var rows: [[String]] = []
    /// Columns aligned right (numbers).
    public var trailingColumns: Set<Int> = []
    /// What to show instead of rows when there are none.
    public var emptyText = "Nothing to show."
    /// A status line (loading, an error); empty shows nothing.
    public var status = ""
    /// The footer line (paging); empty shows nothing.
    public var footer = ""

    /// An empty table.
    public init() {}

    public func render(width: Int) -> [String] {
        var lines = [DisplayText.truncate(title, to: width), Layout.rule(width: min(width, max(DisplayText.width(title), 8)))]
        if rows.isEmpty {
            lines.append(DisplayText.truncate(emptyText, to: width))
        } else {
            lines += Layout.table(headings.isEmpty ? rows : [headings] + rows, width: width, trailingColumns: trailingColumns)
        }
        if !status.isEmpty { lines += DisplayText.wrap(status, to: width) }
        if !footer.isEmpty { lines.append(DisplayText.truncate(footer, to: width)) }
        return lines
    }
}
