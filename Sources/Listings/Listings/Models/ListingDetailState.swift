/// What the detail of one listing is at one moment.
public struct ListingDetailState: Equatable, Sendable {
    /// The listing, once loaded.
    public var detail: ListingDetail?
    /// Whether it is loading.
    public var isLoading = false
    /// What went wrong, if anything.
    public var problem: String?

    /// Nothing loaded yet.
    public init() {}
}
