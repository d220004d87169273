import Foundation
import Listings
import ListingsCategory

/// What the listing list shows: every field has a default, so an empty list is valid.
public struct ListingListViewModel: Equatable, Sendable {
    /// One row of the list.
    public struct Row: Equatable, Sendable {
        /// The row number the user types (`open 3`).
        public var number = ""
        public var name = ""
        public var price = ""
        public var area = ""
        public var district = ""
        public var age = ""
    }

    /// The title line, with the kind and filters.
    public var title = "Listings"
    /// The rows.
    public var rows: [Row] = []
    /// Loading or a problem; empty when idle.
    public var status = ""
    /// Paging: how many are shown and whether more can be loaded.
    public var footer = ""

    /// An empty list.
    public init() {}

    /// The list for the logic's state at `now`; names of saved listings get a star.
    public init(
        kind: ListingKind, listings: [ListingSummary], filters: [String: String], isLoading: Bool,
        isComplete: Bool, problem: String?, now: Date, isSaved: (ListingSummary) -> Bool = { _ in false }
    ) {
        let names: [ListingKind: String] = [.rent: "Rentals", .new: "New homes", .resale: "Resale"]
        let filterText = filters.keys.sorted().map { "\($0)=\(filters[$0]!)" }.joined(separator: " ")
        title = (names[kind] ?? "Listings") + (filterText.isEmpty ? "" : " (\(filterText))")
        rows = listings.enumerated().map { index, listing in
            Row(
                number: "\(index + 1)", name: listing.name + (isSaved(listing) ? " ★" : ""),
                price: Formatting.price(listing.price, monthly: listing.kind == .rent),
                area: Formatting.area(listing.area), district: listing.district,
                age: Formatting.age(of: listing.updatedAt, now: now))
        }
        if isLoading {
            status = "loading…"
        } else if let problem {
            status = "! \(problem)"
        }
        if listings.isEmpty {
            footer = isLoading ? "" : "no listings"
        } else {
            footer = "\(listings.count) shown" + (isComplete ? ", that is all" : " - type more for the next page")
        }
    }
}
