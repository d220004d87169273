import Foundation
import ListingsCategory
import Networking

/// One listing, the same shape whichever service it came from.
public struct ListingSummary: Equatable, Sendable {
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
    /// The district.
    public let district: String
    /// When the listing last changed.
    public let updatedAt: Date
    /// Where it is.
    public let latitude: Double
    /// Where it is.
    public let longitude: Double

    /// Creates a listing summary.
    public init(
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
