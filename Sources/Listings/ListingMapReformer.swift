import Networking

/// A listing as a point on the map.
public struct ListingMapPoint: Equatable, Sendable {
    /// The listing's number in the list it was loaded into (0 until it is known).
    public var number: Int
    /// The listing's id within its kind.
    public let id: Int
    /// The listing's name.
    public let name: String
    /// Where it is.
    public let latitude: Double
    /// Where it is.
    public let longitude: Double

    /// A point.
    public init(number: Int = 0, id: Int, name: String, latitude: Double, longitude: Double) {
        self.number = number
        self.id = id
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
            guard let id = item[prefix + "id"]?.intValue, let name = item[prefix + "name"]?.stringValue,
                  let latitude = item[prefix + "lat"]?.doubleValue, (-90...90).contains(latitude),
                  let longitude = item[prefix + "lng"]?.doubleValue, (-180...180).contains(longitude) else { return nil }
            return ListingMapPoint(id: id, name: name, latitude: latitude, longitude: longitude)
        }
    }
}

extension ListingLogic {
    /// The points of the page last loaded, through the map reformer, numbered as the
    /// list numbers them.
    public func mapPoints() -> [ListingMapPoint] {
        let numbers = Dictionary(listings.value.enumerated().map { ($1.id, $0 + 1) }) { first, _ in first }
        return (currentManager?.fetchData(with: ListingMapReformer()) ?? []).map { point in
            var numbered = point
            numbered.number = numbers[point.id] ?? 0
            return numbered
        }
    }
}
