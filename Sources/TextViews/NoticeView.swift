/// A message in a box: the notice screen for not-found routes and errors.
package final class NoticeView: TextView {
    /// The message.
    package var message: String

    /// A notice saying `message`.
    package init(_ message: String = "") {
        self.message = message
    }

    package func render(width: Int) -> [String] {
        Layout.box(DisplayText.wrap(message, to: max(1, width - 4)), width: width)
    }
}
