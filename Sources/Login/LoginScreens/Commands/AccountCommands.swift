import HomesScreens
import LoginCategory
import Mediator

/// The account's commands on every screen: sign in (the form, or at once), sign out, and
/// who is signed in.
@MainActor
package struct AccountCommands: SharedCommands {
    private let mediator: Mediator

    /// The commands, reaching the account through `mediator`.
    package init(mediator: Mediator) {
        self.mediator = mediator
    }

    package func commands(on screen: any Screen) -> [CommandHelp] {
        [
            CommandHelp(usage: "login [USER PASSWORD]", summary: "sign in (the form, or at once)"),
            CommandHelp(usage: "logout", summary: "sign out"),
            CommandHelp(usage: "account", summary: "show who is signed in"),
        ]
    }

    package func handle(_ input: Command, on screen: any Screen) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        switch command {
        case "login":
            guard arguments.isEmpty || arguments.count == 2 else {
                return .error("usage: login, or login USER PASSWORD")
            }
            return arguments.isEmpty
                ? mediator.loginForm() : mediator.signIn(user: arguments[0], password: arguments[1])
        case "logout":
            return arguments.isEmpty ? mediator.signOut() : .error("usage: logout")
        case "account":
            return arguments.isEmpty ? mediator.accountSummary() : .error("usage: account")
        default:
            return nil
        }
    }
}
