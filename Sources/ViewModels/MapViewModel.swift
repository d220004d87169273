import Listings

/// The map: a grid of characters where each listing of the page is a marker, plus a
/// legend. North is up; the grid spans the points' bounding box.
public struct MapViewModel: Equatable, Sendable {
    /// The grid's lines.
    public var grid: [String] = []
    /// Marker and name, one per listing.
    public var legend: [[String]] = []

    /// An empty map.
    public init() {}

    /// The map of `points` in a grid of `width` by `height` cells.
    public init(points: [ListingMapPoint], width: Int, height: Int) {
        let width = max(2, width)
        let height = max(2, height)
        guard !points.isEmpty else { return }
        let markers = Array("123456789abcdefghijklmnopqrstuvwxyz")
        let latitudes = points.map(\.latitude)
        let longitudes = points.map(\.longitude)
        let (south, north) = (latitudes.min()!, latitudes.max()!)
        let (west, east) = (longitudes.min()!, longitudes.max()!)
        var cells = [[Character]](repeating: [Character](repeating: "·", count: width), count: height)
        for (index, point) in points.prefix(markers.count).enumerated() {
            let column = east > west ? Int(((point.longitude - west) / (east - west) * Double(width - 1)).rounded()) : width / 2
            let row = north > south ? Int(((north - point.latitude) / (north - south) * Double(height - 1)).rounded()) : height / 2
            let marker = markers[index]
            let (y, x) = (min(max(row, 0), height - 1), min(max(column, 0), width - 1))
            cells[y][x] = cells[y][x] == "·" ? marker : "+"
            legend.append([String(marker), point.name])
        }
        grid = cells.map { String($0) }
    }
}
