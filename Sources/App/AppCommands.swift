import FavoritesCategory
import HomesScreens
import LoginCategory
import Mediator
import Networking

/// The commands every screen shares: sign in and out, favourites, links, the network.
/// They reach the features only through the mediator's categories; screens never see them.
@MainActor
struct AppCommands: SharedCommands {
    let mediator: Mediator
    let reachability: NetworkReachability

    let commands = [
        CommandHelp(usage: "login [USER PASSWORD]", summary: "sign in (the form, or at once)"),
        CommandHelp(usage: "logout", summary: "sign out"),
        CommandHelp(usage: "account", summary: "show who is signed in"),
        CommandHelp(usage: "favs", summary: "show the favourites"),
        CommandHelp(usage: "go URL", summary: "open a homes:// link"),
        CommandHelp(usage: "offline / online", summary: "simulate losing and regaining the network"),
    ]

    func handle(_ input: Command) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        switch command {
        case "offline", "online":
            guard arguments.isEmpty else { return .error("usage: \(command)") }
            reachability.update(isReachable: command == "online")
            return .note("network is now \(command)")
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
        case "go":
            guard arguments.count == 1 else {
                return .error("usage: go URL, like go homes://listing/detail?kind=rent&id=3")
            }
            return mediator.screen(at: arguments[0])
        case "favs":
            return arguments.isEmpty ? mediator.favoritesList() : .error("usage: favs")
        default:
            return nil
        }
    }
}
