/// A titled table of typed rows, laid out by its columns, with a status line and a footer.
///
/// ```swift
/// let table = TableView<FavoritesViewModel.Row>(columns: [
///     TableColumn("#", trailing: true) { $0.number },
///     TableColumn("Name") { $0.name },
/// ])
/// table.rows = viewModel.rows
/// ```
package final class TableView<Row>: TextView {
    /// The title line.
    package var title = ""
    /// The columns, in order.
    package let columns: [TableColumn<Row>]
    /// The rows.
    package var rows: [Row] = []
    /// What to show instead of rows when there are none.
    package var emptyText = "Nothing to show."
    /// A status line (loading, an error); empty shows nothing.
    package var status = ""
    /// The footer line (paging); empty shows nothing.
    package var footer = ""

    /// An empty table with `columns`.
    package init(columns: [TableColumn<Row>]) {
        self.columns = columns
    }

    package func render(width: Int) -> [String] {
        var lines = [
            DisplayText.truncate(title, to: width), Layout.rule(width: min(width, max(DisplayText.width(title), 8))),
        ]
        if rows.isEmpty {
            lines.append(DisplayText.truncate(emptyText, to: width))
        } else {
            let cells = rows.map { row in columns.map { $0.text(row) } }
            let headings = columns.map(\.heading)
            let trailing = Set(columns.indices.filter { columns[$0].isTrailing })
            lines += Layout.table(
                headings.allSatisfy(\.isEmpty) ? cells : [headings] + cells, width: width,
                trailingColumns: trailing)
        }
        if !status.isEmpty { lines += DisplayText.wrap(status, to: width) }
        if !footer.isEmpty { lines.append(DisplayText.truncate(footer, to: width)) }
        return lines
    }
}
