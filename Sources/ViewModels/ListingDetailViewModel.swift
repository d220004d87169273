import Foundation
import Listings

/// What the detail screen shows.
public struct ListingDetailViewModel: Equatable, Sendable {
    /// The title line.
    public var title = "Listing"
    /// One fact about the listing: what it is, and its value.
    public struct Fact: Equatable, Sendable {
        /// What the fact is ("Price").
        public let label: String
        /// Its value, formatted.
        public let value: String

        /// A fact.
        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// The facts, in the order shown.
    public var facts: [Fact] = []
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
