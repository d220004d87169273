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
