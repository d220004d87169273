/// Something that renders itself as lines of text within a width.
///
/// Views know nothing of view models, logic or the network: a controller sets their
/// properties (usually through bindings) and they draw what they hold.
package protocol TextView: AnyObject {
    /// The lines to show, each at most `width` columns wide.
    func render(width: Int) -> [String]
}
