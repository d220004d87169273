import Foundation
import HomesScreens
import ListingsCategory
import Mediator
import Signals
import TextViews

/// Coordinates the saved-searches screen: the stored searches, run one again, delete one.
@MainActor
package final class SavedSearchesController: Screen {
    package let name = "searches"
    package let rootView: any TextView
    package let changes: Signal<Void>
    package let isBusy = Property(value: false)
    private let logic: SavedSearchesLogic
    private let mediator: Mediator
    private let table = TableView<SavedSearchesViewModel.Row>(columns: [
        TableColumn("#", trailing: true) { $0.number }, TableColumn("Name") { $0.name },
        TableColumn("Kind") { $0.kind }, TableColumn("Filters") { $0.filters }, TableColumn("Saved") { $0.saved },
    ])
    private let changed: Signal<Void>.Input
    private let bag = DisposeBag()

    /// A screen of `logic`'s searches, run through `mediator`, their ages read from `now`.
    init(logic: SavedSearchesLogic, mediator: Mediator, now: @escaping @Sendable () -> Date) {
        self.logic = logic
        self.mediator = mediator
        rootView = table
        (changes, changed) = Signal<Void>.pipe()
        table.title = "Saved searches"
        table.emptyText = "Nothing saved."
        let viewModel = logic.state.map { SavedSearchesViewModel(state: $0, now: now()) }
        viewModel.bind(\.rows, to: table) { table, rows in table.rows = rows }.dispose(in: bag)
        viewModel.bind(\.status, to: table) { table, status in table.status = status }.dispose(in: bag)
        viewModel.bind(\.footer, to: table) { table, footer in table.footer = footer }.dispose(in: bag)
        viewModel.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
    }

    // MARK: - Commands

    package var commands: [CommandHelp] {
        [
            CommandHelp(usage: "run N", summary: "show saved search N again"),
            CommandHelp(usage: "delete N", summary: "forget saved search N"),
        ]
    }

    package func completions(for command: String) -> [String] {
        command == "run" || command == "delete" ? logic.state.value.searches.indices.map { String($0 + 1) } : []
    }

    package func handle(_ input: Command) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        guard command == "run" || command == "delete" else { return nil }
        let searches = logic.state.value.searches
        guard !searches.isEmpty else { return .error("there are no saved searches") }
        guard arguments.count == 1, let number = Int(arguments[0]), (1...searches.count).contains(number) else {
            return .error("usage: \(command) N, with N from 1 to \(searches.count)")
        }
        let search = searches[number - 1]
        guard command == "run" else { return logic.remove(search).map(CommandOutcome.error) ?? .handled }
        // Stored as text: a database written by another version may hold what this one lacks.
        guard let kind = ListingKind(rawValue: search.kind) else {
            return .error("saved search \(number) is of a kind this version cannot show (\(search.kind))")
        }
        guard let filters = search.filterValues else {
            return .error("saved search \(number)'s filters cannot be read (\(search.filters))")
        }
        return mediator.listingList(ListingQuery(kind: kind, filters: filters))
    }
}
