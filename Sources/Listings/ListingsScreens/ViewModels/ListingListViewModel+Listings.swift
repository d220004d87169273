import Foundation
import Listings
import ListingsCategory
import ViewModels

extension ListingListViewModel {
    /// The list for the logic's state at `now`; names of saved listings get a star.
    package init(
        kind: ListingKind, listings: [ListingSummary], filters: [String: String], isLoading: Bool,
        isComplete: Bool, problem: String?, now: Date, isSaved: (ListingSummary) -> Bool = { _ in false }
    ) {
        self.init()
        isBusy = isLoading
        let names: [ListingKind: String] = [.rent: "Rentals", .new: "New homes", .resale: "Resale"]
        let filterText = filters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
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
