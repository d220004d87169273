/// Views stacked top to bottom.
package final class StackView: TextView {
    /// The views, in order.
    package var views: [any TextView]

    /// A stack of `views`.
    package init(_ views: [any TextView] = []) {
        self.views = views
    }

    package func render(width: Int) -> [String] {
        views.flatMap { $0.render(width: width) }
    }
}
