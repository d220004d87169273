/// A line of text, wrapped to the width.
package final class LabelView: TextView {
    /// The text; empty renders nothing.
    package var text: String

    /// A label showing `text`.
    package init(_ text: String = "") {
        self.text = text
    }

    package func render(width: Int) -> [String] {
        text.isEmpty ? [] : DisplayText.wrap(text, to: width)
    }
}
