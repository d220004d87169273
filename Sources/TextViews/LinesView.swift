/// Lines of text laid out for the width they are drawn at (and cut to it): for a drawing
/// whose lines depend on the width, such as a map.
package final class LinesView: TextView {
    private let lines: (Int) -> [String]

    /// A view drawing `lines(width)` at each width.
    package init(_ lines: @escaping (Int) -> [String]) {
        self.lines = lines
    }

    package func render(width: Int) -> [String] {
        lines(width).map { DisplayText.truncate($0, to: width) }
    }
}
