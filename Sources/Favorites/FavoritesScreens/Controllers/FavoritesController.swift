import Favorites
import Foundation
import HomesScreens
import ListingsCategory
import Mediator
import Signals
import TextViews
import ViewModels

/// Coordinates the favourites screen: the stored favourites, open and unfav.
@MainActor
package final class FavoritesController: Screen {
    package let name = "favourites"
    package let rootView: any TextView
    package let changes: Signal<Void>
    private let favorites: FavoritesLogic
    private let mediator: Mediator
    private let table = TableView<FavoritesViewModel.Row>(columns: [
        TableColumn("#", trailing: true) { $0.number }, TableColumn("Name") { $0.name },
        TableColumn("Kind") { $0.kind },
        TableColumn("Price", trailing: true) { $0.price }, TableColumn("Saved") { $0.saved },
    ])
    private let changed: Signal<Void>.Input
    private let bag = DisposeBag()

    init(favorites: FavoritesLogic, mediator: Mediator, now: @escaping @Sendable () -> Date) {
        self.favorites = favorites
        self.mediator = mediator
        rootView = table
        (changes, changed) = Signal<Void>.pipe()
        table.title = "Favourites"
        table.emptyText = "Nothing saved."
        let viewModel = favorites.state.map(\.favorites).map { FavoritesViewModel(favorites: $0, now: now()) }
        viewModel.bind(\.rows, to: table) { table, rows in table.rows = rows }.dispose(in: bag)
        viewModel.bind(\.footer, to: table) { table, footer in table.footer = footer }.dispose(in: bag)
        viewModel.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
    }

    package let isBusy = Property(value: false)

    // MARK: - Commands

    package var commands: [CommandHelp] {
        [
            CommandHelp(usage: "open N", summary: "show favourite N"),
            CommandHelp(usage: "unfav N", summary: "forget favourite N"),
        ]
    }

    package func completions(for command: String) -> [String] {
        command == "open" || command == "unfav" ? favorites.state.value.favorites.indices.map { String($0 + 1) } : []
    }

    package func handle(_ input: Command) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        guard command == "open" || command == "unfav" else { return nil }
        let saved = favorites.state.value.favorites
        guard arguments.count == 1, let number = Int(arguments[0]), (1...max(1, saved.count)).contains(number),
            !saved.isEmpty
        else {
            return .error(
                saved.isEmpty ? "there are no favourites" : "usage: \(command) N, with N from 1 to \(saved.count)")
        }
        let favorite = saved[number - 1]
        if command == "open" {
            // Stored as text: a database written by another version may hold a kind this one lacks.
            guard let kind = ListingKind(rawValue: favorite.kind) else {
                return .error("favourite \(number) is of a kind this version cannot show (\(favorite.kind))")
            }
            return mediator.listingDetail(kind: kind, id: favorite.listingID)
        }
        return favorites.remove(kind: favorite.kind, listingID: favorite.listingID).map(CommandOutcome.error)
            ?? .handled
    }
}
