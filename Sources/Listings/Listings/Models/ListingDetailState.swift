/// What the detail of one listing is at one moment.
package struct ListingDetailState: Equatable, Sendable {
    /// The listing, once loaded.
    package var detail: ListingDetail?
    /// Whether it is loading.
    package var isLoading = false
    /// What went wrong, if anything.
    package var problem: String?

    /// Nothing loaded yet.
    package init() {}
}
