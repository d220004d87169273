import HomesScreens
import Listings
import ListingsCategory
import Mediator
import Signals
import TextViews
import ViewModels

/// Coordinates the map of every listing the list has loaded: the second reformer over the
/// same data, numbered as the list numbers them.
@MainActor
final class ListingMapController: Screen {
    let name = "map"
    let rootView: any TextView
    let changes: Signal<Void>
    private let changed: Signal<Void>.Input
    private let legend = TableView<MapViewModel.LegendEntry>(columns: [
        TableColumn { $0.marker }, TableColumn { $0.number }, TableColumn { $0.name },
    ])
    private let state: Property<ListingState>
    private let mediator: Mediator
    private let bag = DisposeBag()

    /// A map of the points in the list's `state`; `open N` opens list number N through
    /// `mediator`.
    init(state: Property<ListingState>, mediator: Mediator) {
        self.state = state
        self.mediator = mediator
        (changes, changed) = Signal<Void>.pipe()
        legend.title = "Map (north up; + marks listings sharing a cell)"
        legend.emptyText = "Nothing to map: load a list first."
        let points = state.map(\.mapPoints).skipRepeats()
        let viewModel = points.map { MapViewModel(points: $0, width: 2, height: 2) }
        viewModel.bind(\.legend, to: legend) { legend, entries in legend.rows = entries }.dispose(in: bag)
        viewModel.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
        // The grid is laid out for the width it is drawn at.
        let grid = LinesView { width in
            MapViewModel(points: points.value, width: min(100, max(20, width - 4)), height: 12).grid
        }
        rootView = StackView([legend, grid])
    }

    let isBusy = Property(value: false)
    var commands: [CommandHelp] { [CommandHelp(usage: "open N", summary: "show listing N (its number in the list)")] }

    func completions(for command: String) -> [String] {
        command == "open" ? state.value.mapPoints.map { String($0.number) } : []
    }

    func handle(_ command: Command) -> CommandOutcome? {
        guard command.name == "open" else { return nil }
        let (points, kind) = (state.value.mapPoints, state.value.kind)
        guard command.arguments.count == 1, let number = Int(command.arguments[0]),
            let point = points.first(where: { $0.number == number })
        else {
            return .error(
                points.isEmpty
                    ? "there are no listings on the map"
                    : "usage: open N, with N one of \(points.map { String($0.number) }.joined(separator: ", "))")
        }
        return mediator.listingDetail(kind: kind, id: point.id)
    }
}
