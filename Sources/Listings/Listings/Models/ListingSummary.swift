import Foundation
import ListingsCategory
import Networking

/// One listing, the same shape whichever service it came from.
package struct ListingSummary: Equatable, Sendable {
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
    /// The district.
    package let district: String
    /// When the listing last changed.
    package let updatedAt: Date
    /// Where it is.
    package let latitude: Double
    /// Where it is.
    package let longitude: Double

    /// Creates a listing summary.
    package init(
        kind: ListingKind, id: Int, name: String, title: String, price: Int, area: Int,
        district: String, updatedAt: Date, latitude: Double, longitude: Double
    ) {
        self.kind = kind
        self.id = id
        self.name = name
        self.title = title
        self.price = price
        self.area = area
        self.district = district
        self.updatedAt = updatedAt
        self.latitude = latitude
        self.longitude = longitude
    }
}
