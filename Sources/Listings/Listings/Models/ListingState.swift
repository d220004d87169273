import ListingsCategory

/// What the listing list is at one moment: the kind and filters shown, the pages loaded
/// so far, and how loading went.
package struct ListingState: Equatable, Sendable {
    /// The kind shown.
    package var kind = ListingKind.rent
    /// The filters applied (API parameter name to value).
    package var filters: [String: String] = [:]
    /// The listings loaded so far, page after page.
    package var listings: [ListingSummary] = []
    /// The same listings as points on the map (through the map reformer), numbered as
    /// `listings` numbers them; a listing without a place on the map has no point.
    package var mapPoints: [ListingMapPoint] = []
    /// Whether a page is loading.
    package var isLoading = false
    /// Whether every page has been loaded.
    package var isComplete = false
    /// The last problem, for the user; nil when all is well.
    package var problem: String?
    /// Whether the first page of the kind and filters shown has arrived; `loadMore`
    /// waits for it, so pages of different queries never mix.
    package var hasFirstPage = false

    /// The list before anything is shown: rentals, no filters.
    package init() {}
}
