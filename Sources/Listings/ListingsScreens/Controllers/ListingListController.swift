import FavoritesCategory
import Foundation
import HomesScreens
import Listings
import ListingsCategory
import Mediator
import Signals
import TextViews
import ViewModels

/// Coordinates the listing list: binds the logic's state, through the view model, to the
/// table view, and forwards the user's intents to the logic. Nothing else.
@MainActor
package final class ListingListController: Screen {
    package let name = "listings"
    package let rootView: any TextView
    package let changes: Signal<Void>
    package let isBusy: Property<Bool>
    private let logic: ListingLogic
    private let mediator: Mediator
    private let now: @Sendable () -> Date
    private let table = TableView<ListingListViewModel.Row>(columns: [
        TableColumn("#", trailing: true) { $0.number }, TableColumn("Name") { $0.name },
        TableColumn("Price", trailing: true) { $0.price }, TableColumn("Area", trailing: true) { $0.area },
        TableColumn("District") { $0.district }, TableColumn("Updated") { $0.age },
    ])
    private let changed: Signal<Void>.Input
    private let bag = DisposeBag()

    /// A controller for `logic`'s list; detail screens and favourites through `mediator`.
    package init(logic: ListingLogic, mediator: Mediator, now: @escaping @Sendable () -> Date) {
        self.logic = logic
        self.mediator = mediator
        self.now = now
        rootView = table
        (changes, changed) = Signal<Void>.pipe()
        let viewModel = Self.viewModel(of: logic, saved: mediator.savedListings(), now: now)
        isBusy = viewModel.map(\.isBusy)
        viewModel.bind(\.title, to: table) { table, title in table.title = title }.dispose(in: bag)
        viewModel.bind(\.rows, to: table) { table, rows in table.rows = rows }.dispose(in: bag)
        viewModel.bind(\.status, to: table) { table, status in table.status = status }.dispose(in: bag)
        viewModel.bind(\.footer, to: table) { table, footer in table.footer = footer }.dispose(in: bag)
        viewModel.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
    }

    /// The link that opens the list again with its kind and filters.
    package var link: String? {
        let state = logic.state.value
        return mediator.link(to: ListingQuery(kind: state.kind, filters: state.filters))
    }

    /// What the list shows, its link: a link to another kind or filters opens another list.
    package var identity: String { link ?? name }

    package func cancelWork() {
        logic.cancel()
    }

    package func completions(for command: String) -> [String] {
        switch command {
        case "list": return ListingKind.allCases.map(\.rawValue)
        case "filter": return ListingLogic.filterKeys.sorted() + ["clear"]
        case "open", "fav", "unfav": return logic.state.value.listings.indices.map { String($0 + 1) }
        default: return []
        }
    }

    // MARK: - Commands

    package var commands: [CommandHelp] {
        [
            CommandHelp(usage: "list rent|new|resale", summary: "show a kind of listing"),
            CommandHelp(usage: "more", summary: "load the next page"),
            CommandHelp(usage: "refresh", summary: "reload the first page from the network"),
            CommandHelp(usage: "filter KEY VALUE...", summary: "filter by max_price, min_price, rooms or district"),
            CommandHelp(usage: "filter clear", summary: "remove every filter"),
            CommandHelp(usage: "map", summary: "show the listings loaded on a map"),
            CommandHelp(usage: "open N", summary: "show listing N"),
            CommandHelp(usage: "fav N", summary: "save listing N in favourites"),
            CommandHelp(usage: "unfav N", summary: "forget listing N"),
        ]
    }

    package func handle(_ input: Command) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        switch command {
        case "list": return list(arguments)
        case "more": return logic.loadMore() ? .handled : .error(refusalOfMore())
        case "refresh": return logic.refresh() ? .handled : .error("already loading")
        case "filter": return filter(arguments)
        case "open", "fav", "unfav": return listing(command, arguments)
        case "map":
            guard arguments.isEmpty else { return .error("usage: map") }
            return .push(ListingMapController(state: logic.state, mediator: mediator))
        default: return nil
        }
    }

    // MARK: - Event responses

    private func list(_ arguments: [String]) -> CommandOutcome {
        guard arguments.count == 1, let kind = ListingKind(rawValue: arguments[0].lowercased()) else {
            return .error("usage: list rent|new|resale")
        }
        logic.show(kind)
        return .handled
    }

    private func refusalOfMore() -> String {
        if isBusy.value { return "still loading" }
        if logic.state.value.isComplete { return "that was the last page" }
        return "the first page has not loaded; refresh to try again"
    }

    private func filter(_ arguments: [String]) -> CommandOutcome {
        if arguments.map({ $0.lowercased() }) == ["clear"] {
            logic.clearFilters()
            return .handled
        }
        guard !arguments.isEmpty, arguments.count % 2 == 0 else {
            return .error("usage: filter KEY VALUE... or filter clear")
        }
        let pairs = stride(from: 0, to: arguments.count, by: 2).map {
            (key: arguments[$0].lowercased(), value: arguments[$0 + 1])
        }
        return logic.filter(pairs).map(CommandOutcome.error) ?? .handled
    }

    private func listing(_ command: String, _ arguments: [String]) -> CommandOutcome {
        let shown = logic.state.value.listings
        guard arguments.count == 1, let number = Int(arguments[0]), (1...max(1, shown.count)).contains(number),
            !shown.isEmpty
        else {
            return .error(
                shown.isEmpty ? "there are no listings shown" : "usage: \(command) N, with N from 1 to \(shown.count)")
        }
        let listing = shown[number - 1]
        switch command {
        case "open":
            return mediator.listingDetail(kind: listing.kind, id: listing.id)
        case "fav":
            let problem = mediator.saveFavorite(
                kind: listing.kind, id: listing.id, name: listing.name,
                price: listing.price)
            return problem.map(CommandOutcome.error) ?? .handled
        default:
            return mediator.forgetFavorite(kind: listing.kind, id: listing.id).map(CommandOutcome.error) ?? .handled
        }
    }

    // MARK: - Factories

    /// One view model per change of the list's state or of the favourites.
    private static func viewModel(
        of logic: ListingLogic, saved: Property<Set<SavedListing>>,
        now: @escaping @Sendable () -> Date
    ) -> Property<ListingListViewModel> {
        Property.combineLatest(logic.state, saved).map { state, saved in
            ListingListViewModel(
                kind: state.kind, listings: state.listings, filters: state.filters, isLoading: state.isLoading,
                isComplete: state.isComplete, problem: state.problem, now: now(),
                isSaved: { saved.contains(SavedListing(kind: $0.kind, id: $0.id)) })
        }
    }
}
