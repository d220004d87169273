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
