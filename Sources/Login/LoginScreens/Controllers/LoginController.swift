import HomesScreens
import Login
import Signals
import TextViews
import ViewModels

/// Coordinates the sign-in form: fields set one command at a time, validation messages
/// bound to every change, and a submit that cannot run twice or while the form is invalid.
@MainActor
package final class LoginController: Screen {
    package let name = "login"
    package let rootView: any TextView
    package let changes: Signal<Void>
    package let isBusy: Property<Bool>
    private let logic: LoginLogic
    private let form = TableView<LoginViewModel.Field>(columns: [
        TableColumn { $0.label }, TableColumn { $0.value }, TableColumn { $0.problem },
    ])
    private let submitLine = LabelView()
    private let changed: Signal<Void>.Input
    private let bag = DisposeBag()

    init(logic: LoginLogic) {
        self.logic = logic
        rootView = StackView([form, submitLine])
        (changes, changed) = Signal<Void>.pipe()
        form.title = "Sign in"
        let viewModel = logic.state.map { state in
            LoginViewModel(
                username: state.username, password: state.password, usernameProblem: state.usernameProblem,
                passwordProblem: state.passwordProblem, canSubmit: state.canSubmit, isSubmitting: state.isSubmitting,
                signedInAs: state.signedInAs, failure: state.failure)
        }
        isBusy = viewModel.map(\.isBusy)
        viewModel.bind(\.fields, to: form) { form, fields in form.rows = fields }.dispose(in: bag)
        viewModel.bind(\.status, to: form) { form, status in form.status = status }.dispose(in: bag)
        viewModel.bind(\.submitLine, to: submitLine) { label, text in label.text = text }.dispose(in: bag)
        viewModel.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
    }

    package func cancelWork() {
        logic.cancel()
    }

    // MARK: - Commands

    package var commands: [CommandHelp] {
        [
            CommandHelp(usage: "user NAME", summary: "set the username"),
            CommandHelp(usage: "password SECRET", summary: "set the password"),
            CommandHelp(usage: "submit", summary: "sign in"),
        ]
    }

    package func handle(_ input: Command) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        switch command {
        case "password" where arguments.isEmpty:
            // Typed without echo, never kept in the history or the scrollback.
            return .secret(prompt: "Password: ") { [logic] secret in
                logic.setPassword(secret)
                return .handled
            }
        case "user", "password":
            guard arguments.count == 1 else {
                return .error("usage: \(command) \(command == "user" ? "NAME" : "SECRET")")
            }
            command == "user" ? logic.setUsername(arguments[0]) : logic.setPassword(arguments[0])
            return .handled
        case "submit":
            guard arguments.isEmpty else { return .error("usage: submit") }
            if logic.submit() { return .handled }
            // The sign-in's action refused the start: say why, from the state it refused on.
            let state = logic.state.value
            return .error(
                state.isSubmitting
                    ? "already signing in: this submit was not sent" : state.failure ?? "fix the form first")
        default:
            return nil
        }
    }

    /// Fills the form and submits it: the `login USER PASSWORD` shortcut.
    func signIn(user: String, password: String) -> CommandOutcome {
        logic.setUsername(user)
        logic.setPassword(password)
        return handle("submit", []) ?? .handled
    }
}
