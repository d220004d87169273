import Foundation
import Listings
import ListingsCategory
import ViewModels

extension ListingDetailViewModel {
    /// The detail for the logic's state at `now`, with where a question to the agent is
    /// (`inquiryStatus`, and whether it `isSending`).
    package init(
        detail: ListingDetail?, isLoading: Bool, problem: String?, isFavorite: Bool, now: Date,
        inquiryStatus: String? = nil, isSending: Bool = false
    ) {
        self.init()
        isBusy = isLoading || isSending
        self.inquiryStatus = inquiryStatus ?? ""
        if let detail {
            title = detail.name + (isFavorite ? " ★" : "")
            facts = [
                Fact("About", detail.title),
                Fact("Price", Formatting.price(detail.price, monthly: detail.kind == .rent)),
                Fact("Area", Formatting.area(detail.area)),
                Fact("Rooms", String(detail.rooms)),
                Fact("District", detail.district),
                Fact("Updated", Formatting.age(of: detail.updatedAt, now: now)),
            ]
            favoriteMark = isFavorite ? "saved in favourites - unfav to remove" : "fav to save it"
        }
        if isLoading {
            status = "loading…"
        } else if let problem {
            status = "! \(problem)"
        }
    }
}
