import HomesScreens
import Listings
import ListingsCategory
import Mediator
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
    private let legend = TableView<MapViewModel.LegendEntry>(columns: [
        TableColumn { $0.marker }, TableColumn { $0.number }, TableColumn { $0.name },
    ])
    private let points: [ListingMapPoint]
    private let kind: ListingKind
    private let mediator: Mediator

    /// A map of `points`, listings of `kind`; `open N` opens list number N through `mediator`.
    init(points: [ListingMapPoint], kind: ListingKind, mediator: Mediator) {
        self.points = points
        self.kind = kind
        self.mediator = mediator
        (changes, input) = Signal<Void>.pipe()
        legend.title = "Map (north up; + marks listings sharing a cell)"
        legend.emptyText = "Nothing to map: load a list first."
        legend.rows = MapViewModel(points: points, width: 2, height: 2).legend
        // The grid is laid out for the width it is drawn at.
        let grid = LinesView { width in
            MapViewModel(points: points, width: min(100, max(20, width - 4)), height: 12).grid
        }
        rootView = StackView([legend, grid])
    }

    let isBusy = Property(value: false)
    var commands: [CommandHelp] { [CommandHelp(usage: "open N", summary: "show listing N (its number in the list)")] }

    func completions(for command: String) -> [String] {
        command == "open" ? points.map(\.number).filter { $0 > 0 }.map(String.init) : []
    }

    func handle(_ command: Command) -> CommandOutcome? {
        guard command.name == "open" else { return nil }
        let numbers = points.map(\.number).filter { $0 > 0 }
        guard command.arguments.count == 1, let number = Int(command.arguments[0]),
            let point = points.first(where: { $0.number == number })
        else {
            return .error(
                numbers.isEmpty
                    ? "there are no listings on the map"
                    : "usage: open N, with N one of \(numbers.map(String.init).joined(separator: ", "))")
        }
        return mediator.listingDetail(kind: kind, id: point.id)
    }
}
