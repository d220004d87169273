import Listings
import ViewModels

extension MapViewModel {
    /// The map of `points` in a grid of `width` by `height` cells.
    package init(points: [ListingMapPoint], width: Int, height: Int) {
        self.init()
        let width = max(2, width)
        let height = max(2, height)
        guard !points.isEmpty else { return }
        let markers = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let latitudes = points.map(\.latitude)
        let longitudes = points.map(\.longitude)
        let (south, north) = (latitudes.min()!, latitudes.max()!)
        let (west, east) = (longitudes.min()!, longitudes.max()!)
        var cells = [[Character]](repeating: [Character](repeating: "·", count: width), count: height)
        /// Where `value` falls between `low` and `high`, as a cell in `0..<cells`; the middle
        /// when the span is empty or not a number.
        func cell(_ value: Double, _ low: Double, _ high: Double, _ cells: Int) -> Int {
            let ratio = (value - low) / (high - low)
            guard ratio.isFinite else { return cells / 2 }
            return Int((min(max(ratio, 0), 1) * Double(cells - 1)).rounded())
        }
        for (index, point) in points.enumerated() {
            let column = cell(point.longitude, west, east, width)
            let row = height - 1 - cell(point.latitude, south, north, height)
            let marker = index < markers.count ? markers[index] : "*"
            let (y, x) = (min(max(row, 0), height - 1), min(max(column, 0), width - 1))
            cells[y][x] = cells[y][x] == "·" ? marker : "+"
            legend.append(LegendEntry(marker: String(marker), number: String(point.number), name: point.name))
        }
        grid = cells.map { String($0) }
    }
}
