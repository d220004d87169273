/// Something that renders itself as lines of text within a width.
///
/// Views know nothing of view models, logic or the network: a controller sets their
/// properties (usually through bindings) and they draw what they hold.
public protocol TextView: AnyObject {
    /// The lines to show, each at most `width` columns wide.
    func render(width: Int) -> [String]
}

/// Views stacked top to bottom.
public final class StackView: TextView {
    /// The views, in order.
    public var views: [any TextView]

    /// A stack of `views`.
    public init(_ views: [any TextView] = []) {
        self.views = views
    }

    public func render(width: Int) -> [String] {
        views.flatMap { $0.render(width: width) }
    }
}

/// A line of text, wrapped to the width.
public final class LabelView: TextView {
    /// The text; empty renders nothing.
    public var text: String

    /// A label showing `text`.
    public init(_ text: String = "") {
        self.text = text
    }

    public func render(width: Int) -> [String] {
        text.isEmpty ? [] : DisplayText.wrap(text, to: width)
    }
}

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

/// A message in a box: the notice screen for not-found routes and errors.
public final class NoticeView: TextView {
    /// The message.
    public var message: String

    /// A notice saying `message`.
    public init(_ message: String = "") {
        self.message = message
    }

    public func render(width: Int) -> [String] {
        Layout.box(DisplayText.wrap(message, to: max(1, width - 4)), width: width)
    }
}
