import Networking

/// A listing as a point on the map.
package struct ListingMapPoint: Equatable, Sendable {
    /// The listing's number in the list it was loaded into (0 until it is known).
    package var number: Int
    /// The listing's id within its kind.
    package let id: Int
    /// The listing's name.
    package let name: String
    /// Where it is.
    package let latitude: Double
    /// Where it is.
    package let longitude: Double

    /// A point.
    package init(number: Int = 0, id: Int, name: String, latitude: Double, longitude: Double) {
        self.number = number
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}
