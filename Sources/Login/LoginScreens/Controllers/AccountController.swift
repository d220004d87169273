import HomesScreens
import Login
import Signals
import TextViews
import ViewModels

/// Coordinates the account screen: who is signed in, kept up to date as that changes.
@MainActor
public final class AccountController: Screen {
    public let name = "account"
    public let rootView: any TextView
    public let changes: Signal<Void>
    public let isBusy = Property(value: false)
    public var commands: [CommandHelp] { [] }
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

    public func handle(_ command: Command) -> CommandOutcome? { nil }
}
