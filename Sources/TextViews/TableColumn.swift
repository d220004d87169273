/// One column of a `TableView`: its heading, what a row shows in it, and whether it is
/// aligned right (numbers). The controller, which knows the row type, defines the columns;
/// the view knows nothing of it.
package struct TableColumn<Row> {
    /// The heading; a table whose headings are all empty shows none.
    package let heading: String
    /// Whether the column is aligned right.
    package let isTrailing: Bool
    /// The text of `row` in this column.
    package let text: (Row) -> String

    /// A column headed `heading` showing `text(row)`, aligned right when `trailing`.
    package init(_ heading: String = "", trailing: Bool = false, _ text: @escaping (Row) -> String) {
        self.heading = heading
        isTrailing = trailing
        self.text = text
    }
}
