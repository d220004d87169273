import Listings
import Signals
import TextViews
import ViewModels

/// Coordinates the map of the page last loaded: the second reformer over the same data.
final class ListingMapController: Screen {
    let name = "map"
    let rootView: any TextView
    let changes: Signal<Void>
    private let input: Signal<Void>.Input
    private let legend = TableView()

    init(points: [ListingMapPoint], width: Int) {
        (changes, input) = Signal<Void>.pipe()
        let map = MapViewModel(points: points, width: min(60, max(20, width - 4)), height: 12)
        legend.title = "Map (north up; + marks listings sharing a cell)"
        legend.emptyText = "Nothing to map: load a list first."
        legend.rows = map.legend
        let lines = LinesView(map.grid)
        rootView = StackView([legend, lines])
    }

    var isBusy: Bool { false }
    var commands: [CommandHelp] { [] }

    func handle(_ command: String, _ arguments: [String]) -> CommandOutcome? {
        nil
    }
}

/// Fixed lines of text, drawn as they are (cut to the width).
final class LinesView: TextView {
    private let lines: [String]

    init(_ lines: [String]) {
        self.lines = lines
    }

    func render(width: Int) -> [String] {
        lines.map { DisplayText.truncate($0, to: width) }
    }
}
