import Foundation
import Listings

/// What the detail screen shows.
public struct ListingDetailViewModel: Equatable, Sendable {
    /// The title line.
    public var title = "Listing"
    /// Label and value pairs.
    public var facts: [[String]] = []
    /// Loading or a problem; empty when idle.
    public var status = ""
    /// Whether it is among the favourites.
    public var favoriteMark = ""

    /// An empty detail.
    public init() {}

    /// The detail for the logic's state at `now`.
    public init(detail: ListingDetail?, isLoading: Bool, problem: String?, isFavorite: Bool, now: Date) {
        if let detail {
            title = detail.name + (isFavorite ? " ★" : "")
            facts = [
                ["About", detail.title],
                ["Price", Formatting.price(detail.price, monthly: detail.kind == .rent)],
                ["Area", Formatting.area(detail.area)],
                ["Rooms", String(detail.rooms)],
                ["District", detail.district],
                ["Updated", Formatting.age(of: detail.updatedAt, now: now)],
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
