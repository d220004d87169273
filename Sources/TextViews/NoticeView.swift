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
