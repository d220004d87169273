/// The commands every screen shares: sign in and out, favourites, links, the network.
/// Each answers with what the session should do; screens never see them.
@MainActor
struct AppCommands {
    let context: HomesContext

    static let help = [
        CommandHelp(usage: "login [USER PASSWORD]", summary: "sign in (the form, or at once)"),
        CommandHelp(usage: "logout", summary: "sign out"),
        CommandHelp(usage: "favs", summary: "show the favourites"),
        CommandHelp(usage: "go URL", summary: "open a homes:// link"),
        CommandHelp(usage: "offline / online", summary: "simulate losing and regaining the network"),
        CommandHelp(usage: "back", summary: "return to the previous screen"),
        CommandHelp(usage: "help", summary: "list these commands"),
        CommandHelp(usage: "quit", summary: "leave homes"),
    ]

    /// What to do for `command`, or nil when it is not one of these.
    func handle(_ input: Command) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        switch command {
        case "offline", "online":
            guard arguments.isEmpty else { return .error("usage: \(command)") }
            context.engine.reachability.update(isReachable: command == "online")
            return .note("network is now \(command)")
        case "login":
            return login(arguments)
        case "logout":
            guard let user = context.login.signedInAs.value else { return .error("nobody is signed in") }
            context.login.signOut()
            return .note("signed out \(user)")
        case "go":
            guard arguments.count == 1 else { return .error("usage: go URL, like go homes://listing/detail?kind=rent&id=3") }
            return context.mediator.screen(at: arguments[0])
        case "favs":
            return arguments.isEmpty ? context.mediator.favoritesList() : .error("usage: favs")
        default:
            return nil
        }
    }

    private func login(_ arguments: [String]) -> CommandOutcome {
        guard arguments.isEmpty || arguments.count == 2 else { return .error("usage: login, or login USER PASSWORD") }
        return arguments.isEmpty ? context.mediator.loginForm()
            : context.mediator.signIn(user: arguments[0], password: arguments[1])
    }
}
