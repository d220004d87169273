import ListingsCategory

/// What the listing list has loaded: the kind and filters shown and the pages so far. The
/// logic keeps it; whether a page loads and why the last one failed are its activity's.
package struct ListingPages: Equatable, Sendable {
    /// The kind shown.
    package var kind = ListingKind.rent
    /// The filters applied (API parameter name to value).
    package var filters: [String: String] = [:]
    /// The listings loaded so far, page after page.
    package var listings: [ListingSummary] = []
    /// The same listings as points on the map (through the map reformer), numbered as
    /// `listings` numbers them; a listing without a place on the map has no point.
    package var mapPoints: [ListingMapPoint] = []
    /// Whether every page has been loaded.
    package var isComplete = false
    /// Whether the first page of the kind and filters shown has arrived; `loadMore`
    /// waits for it, so pages of different queries never mix.
    package var hasFirstPage = false
    /// Whether the user stopped the last load (Ctrl-C): the list's problem says so until
    /// a load starts again.
    package var wasCancelled = false

    /// The list before anything is shown: rentals, no filters.
    package init() {}
}
