import Foundation
import ListingsCategory
import Networking
import Signals

/// Everything about one listing.
public struct ListingDetail: Equatable, Sendable {
    /// Which service it came from.
    public let kind: ListingKind
    /// Its id within that service.
    public let id: Int
    /// Its name.
    public let name: String
    /// A one-line description.
    public let title: String
    /// Monthly rent or total price, in yuan.
    public let price: Int
    /// Floor area in square metres.
    public let area: Int
    /// Number of rooms.
    public let rooms: Int
    /// The district.
    public let district: String
    /// When it last changed.
    public let updatedAt: Date

    /// Creates a detail.
    public init(
        kind: ListingKind, id: Int, name: String, title: String, price: Int, area: Int, rooms: Int,
        district: String, updatedAt: Date
    ) {
        self.kind = kind
        self.id = id
        self.name = name
        self.title = title
        self.price = price
        self.area = area
        self.rooms = rooms
        self.district = district
        self.updatedAt = updatedAt
    }
}
