import Foundation
import ListingsCategory
import Networking
import Signals

/// Everything about one listing.
package struct ListingDetail: Equatable, Sendable {
    /// Which service it came from.
    package let kind: ListingKind
    /// Its id within that service.
    package let id: Int
    /// Its name.
    package let name: String
    /// A one-line description.
    package let title: String
    /// Monthly rent or total price, in yuan.
    package let price: Int
    /// Floor area in square metres.
    package let area: Int
    /// Number of rooms.
    package let rooms: Int
    /// The district.
    package let district: String
    /// When it last changed.
    package let updatedAt: Date

    /// Creates a detail.
    package init(
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
