import Foundation
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
    public init(kind: ListingKind, id: Int, name: String, title: String, price: Int, area: Int,
                district: String, updatedAt: Date, latitude: Double, longitude: Double) {
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

/// Normalises the three list APIs, whose keys differ, into one list of `ListingSummary`.
/// It tells the kinds apart by the manager's API; items missing required fields are skipped.
public struct ListingListReformer: APIReformer {
    /// Creates the reformer.
    public init() {}

    public func reform(_ data: JSONValue, from manager: any APIManaging) -> [ListingSummary] {
        guard let kind = (manager.definition as? ListingListAPI)?.kind else { return [] }
        let prefix = kind.keyPrefix
        return (data["items"]?.arrayValue ?? []).compactMap { item in
            guard let id = item[prefix + "id"]?.intValue,
                  let name = item[prefix + "name"]?.stringValue,
                  let price = item[prefix + "price"]?.intValue else { return nil }
            return ListingSummary(
                kind: kind, id: id, name: name,
                title: item[prefix + "title"]?.stringValue ?? name,
                price: price,
                area: item[prefix + "area"]?.intValue ?? 0,
                district: item[prefix + "district"]?.stringValue ?? "",
                updatedAt: Date(timeIntervalSince1970: item[prefix + "updated_at"]?.doubleValue ?? 0),
                latitude: item[prefix + "lat"]?.doubleValue ?? 0,
                longitude: item[prefix + "lng"]?.doubleValue ?? 0
            )
        }
    }
}
