import HomesScreens
import Login
import Signals
import TextViews
import ViewModels

/// Coordinates the account screen: who is signed in, kept up to date as that changes.
@MainActor
package final class AccountController: Screen {
    package let name = "account"
    package let rootView: any TextView
    package let changes: Signal<Void>
    package let isBusy = Property(value: false)
    package var commands: [CommandHelp] { [] }
    private let table = TableView<AccountViewModel.Fact>(columns: [TableColumn { $0.label }, TableColumn { $0.value }])
    private let changed: Signal<Void>.Input
    private let bag = DisposeBag()

    init(logic: LoginLogic) {
        rootView = table
        (changes, changed) = Signal<Void>.pipe()
        table.title = "Account"
        let viewModel = logic.state.map { AccountViewModel(signedInAs: $0.signedInAs) }
        viewModel.bind(\.facts, to: table) { table, facts in table.rows = facts }.dispose(in: bag)
        viewModel.bind(\.hint, to: table) { table, hint in table.footer = hint }.dispose(in: bag)
        viewModel.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
    }

    package func handle(_ command: Command) -> CommandOutcome? { nil }
}
