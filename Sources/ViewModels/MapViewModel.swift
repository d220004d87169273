/// The map: a grid of characters where each listing is a letter or a digit, plus a legend
/// giving each marker's listing number (the number the list shows) and name. North is up;
/// the grid spans the points' bounding box. Past the 62 letters and digits, listings share
/// the marker `*`.
public struct MapViewModel: Equatable, Sendable {
    /// The grid's lines.
    public var grid: [String] = []
    /// One listing on the map: the letter marking it, its number in the list, its name.
    public struct LegendEntry: Equatable, Sendable {
        /// The letter marking it on the grid.
        public let marker: String
        /// Its number in the list.
        public let number: String
        /// Its name.
        public let name: String

        /// An entry of the legend.
        public init(marker: String, number: String, name: String) {
            self.marker = marker
            self.number = number
            self.name = name
        }
    }

    /// The legend, one entry per listing.
    public var legend: [LegendEntry] = []

    /// An empty map.
    public init() {}
}
