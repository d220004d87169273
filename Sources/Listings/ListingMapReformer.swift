import Networking

/// A listing as a point on the map.
public struct ListingMapPoint: Equatable, Sendable {
    /// The listing's name.
    public let name: String
    /// Where it is.
    public let latitude: Double
    /// Where it is.
    public let longitude: Double

    /// A point.
    public init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The second view of the same list APIs: the points of a page, for the map. It reads the
/// same raw data as `ListingListReformer`, with the same per-service keys.
public struct ListingMapReformer: APIReformer {
    /// Creates the reformer.
    public init() {}

    public func reform(_ data: JSONValue, from manager: any APIManaging) -> [ListingMapPoint] {
        guard let prefix = (manager.definition as? ListingListAPI)?.kind.keyPrefix else { return [] }
        return (data["items"]?.arrayValue ?? []).compactMap { item in
            guard let name = item[prefix + "name"]?.stringValue,
                  let latitude = item[prefix + "lat"]?.doubleValue, (-90...90).contains(latitude),
                  let longitude = item[prefix + "lng"]?.doubleValue, (-180...180).contains(longitude) else { return nil }
            return ListingMapPoint(name: name, latitude: latitude, longitude: longitude)
        }
    }
}

extension ListingLogic {
    /// The points of the page last loaded, through the map reformer.
    public func mapPoints() -> [ListingMapPoint] {
        currentManager?.fetchData(with: ListingMapReformer()) ?? []
    }
}
