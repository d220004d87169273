/// What the detail screen shows.
package struct ListingDetailViewModel: Equatable, Sendable {
    /// The title line.
    package var title = "Listing"
    /// One fact about the listing: what it is, and its value.
    package struct Fact: Equatable, Sendable {
        /// What the fact is ("Price").
        package let label: String
        /// Its value, formatted.
        package let value: String

        /// A fact.
        package init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// The facts, in the order shown.
    package var facts: [Fact] = []
    /// Loading or a problem; empty when idle.
    package var status = ""
    /// Whether it is among the favourites.
    package var favoriteMark = ""
    /// Where a question to the agent is (sending, sent, failed); empty before the first.
    package var inquiryStatus = ""
    /// Whether work the screen started is on its way (a request): the screen is busy,
    /// and the session waits for it, while this is true.
    package var isBusy = false

    /// An empty detail.
    package init() {}
}
