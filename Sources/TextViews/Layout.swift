/// Small layout pieces that replace string arithmetic in views.
package enum Layout {
    /// A table: each column gets the width of its widest cell (or its share of `width`),
    /// cells fitted and separated by two spaces. Trailing columns listed in
    /// `trailingColumns` align right (numbers).
    package static func table(_ rows: [[String]], width: Int, trailingColumns: Set<Int> = []) -> [String] {
        let columnCount = rows.map(\.count).max() ?? 0
        guard columnCount > 0 else { return [] }
        var widths = (0..<columnCount).map { column in
            rows.map { column < $0.count ? DisplayText.width($0[column]) : 0 }.max() ?? 0
        }
        let separators = 2 * (columnCount - 1)
        // Shrink the widest columns until the table fits.
        while widths.reduce(0, +) + separators > width,
            let widest = widths.indices.max(by: { widths[$0] < widths[$1] }),
            widths[widest] > 4
        {
            widths[widest] -= 1
        }
        return rows.map { row in
            (0..<columnCount).map { column in
                let cell = column < row.count ? row[column] : ""
                return DisplayText.fit(
                    cell, to: widths[column], alignment: trailingColumns.contains(column) ? .trailing : .leading)
            }
            .joined(separator: "  ")
            .trimmingTrailingSpaces()
        }
    }

    /// `lines` in a box of `width` columns.
    package static func box(_ lines: [String], width: Int) -> [String] {
        let inner = max(1, width - 4)
        let border = "+" + String(repeating: "-", count: inner + 2) + "+"
        return [border] + lines.map { "| " + DisplayText.fit($0, to: inner) + " |" } + [border]
    }

    /// A rule of `width` columns.
    package static func rule(width: Int) -> String {
        String(repeating: "-", count: max(0, width))
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
