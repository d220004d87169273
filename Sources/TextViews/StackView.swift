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
