/// What the detail screen shows.
public struct ListingDetailViewModel: Equatable, Sendable {
    /// The title line.
    public var title = "Listing"
    /// One fact about the listing: what it is, and its value.
    public struct Fact: Equatable, Sendable {
        /// What the fact is ("Price").
        public let label: String
        /// Its value, formatted.
        public let value: String

        /// A fact.
        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// The facts, in the order shown.
    public var facts: [Fact] = []
    /// Loading or a problem; empty when idle.
    public var status = ""
    /// Whether it is among the favourites.
    public var favoriteMark = ""

    /// An empty detail.
    public init() {}
}
