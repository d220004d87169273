/// What the detail of one listing is at one moment. Derived by `ListingDetailLogic` from
/// what it loaded and its activity, never set by hand.
package struct ListingDetailState: Equatable, Sendable {
    /// The listing, once loaded.
    package let detail: ListingDetail?
    /// Whether it is loading.
    package let isLoading: Bool
    /// What went wrong, if anything.
    package let problem: String?

    /// The detail `detail`, loading or not, with `problem`; by default nothing loaded yet.
    package init(detail: ListingDetail? = nil, isLoading: Bool = false, problem: String? = nil) {
        self.detail = detail
        self.isLoading = isLoading
        self.problem = problem
    }
}
