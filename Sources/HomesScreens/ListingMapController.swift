import Listings
import Signals
import TextViews
import ViewModels

/// Coordinates the map of the page last loaded: the second reformer over the same data.
@MainActor
final class ListingMapController: Screen {
    let name = "map"
    let rootView: any TextView
    let changes: Signal<Void>
    private let input: Signal<Void>.Input
    private let legend = TableView()

    init(points: [ListingMapPoint]) {
        (changes, input) = Signal<Void>.pipe()
        legend.title = "Map (north up; + marks listings sharing a cell)"
        legend.emptyText = "Nothing to map: load a list first."
        legend.rows = MapViewModel(points: points, width: 2, height: 2).legend
        // The grid is laid out for the width it is drawn at.
        let grid = LinesView { width in MapViewModel(points: points, width: min(100, max(20, width - 4)), height: 12).grid }
        rootView = StackView([legend, grid])
    }

    let isBusy = Property(value: false)
    var commands: [CommandHelp] { [] }

    func handle(_ command: Command) -> CommandOutcome? {
        nil
    }
}

/// Lines of text laid out for the width they are drawn at (and cut to it).
final class LinesView: TextView {
    private let lines: (Int) -> [String]

    init(_ lines: @escaping (Int) -> [String]) {
        self.lines = lines
    }

    func render(width: Int) -> [String] {
        lines(width).map { DisplayText.truncate($0, to: width) }
    }
}
