/// What a listing list shows: a kind and its filters (`rooms` to `2`). Part of the
/// listings' category, so other features can keep a list and open it again without
/// importing `Listings`; the listings check the filters when the list opens.
package struct ListingQuery: Hashable, Sendable {
    /// The kind of listing.
    package var kind: ListingKind
    /// The filters, by key (`max_price`, `min_price`, `rooms`, `district`).
    package var filters: [String: String]

    /// The listings of `kind` that match `filters`.
    package init(kind: ListingKind, filters: [String: String] = [:]) {
        self.kind = kind
        self.filters = filters
    }
}
