/// The map: a grid of characters where each listing is a letter or a digit, plus a legend
/// giving each marker's listing number (the number the list shows) and name. North is up;
/// the grid spans the points' bounding box. Past the 62 letters and digits, listings share
/// the marker `*`.
package struct MapViewModel: Equatable, Sendable {
    /// The grid's lines.
    package var grid: [String] = []
    /// One listing on the map: the letter marking it, its number in the list, its name.
    package struct LegendEntry: Equatable, Sendable {
        /// The letter marking it on the grid.
        package let marker: String
        /// Its number in the list.
        package let number: String
        /// Its name.
        package let name: String

        /// An entry of the legend.
        package init(marker: String, number: String, name: String) {
            self.marker = marker
            self.number = number
            self.name = name
        }
    }

    /// The legend, one entry per listing.
    package var legend: [LegendEntry] = []

    /// An empty map.
    package init() {}
}
