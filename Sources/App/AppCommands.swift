import HomesScreens
import Mediator
import Networking

/// The commands every screen has that belong to no feature: links and the network. The
/// features' own shared commands (`favs`, `login`) come with the features.
@MainActor
struct AppCommands: SharedCommands {
    let mediator: Mediator
    let reachability: NetworkReachability

    func commands(on screen: any Screen) -> [CommandHelp] {
        [
            CommandHelp(usage: "go URL", summary: "open a homes:// link"),
            CommandHelp(usage: "offline / online", summary: "simulate losing and regaining the network"),
        ]
    }

    func handle(_ input: Command, on screen: any Screen) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        switch command {
        case "offline", "online":
            guard arguments.isEmpty else { return .error("usage: \(command)") }
            reachability.update(isReachable: command == "online")
            return .note("network is now \(command)")
        case "go":
            guard arguments.count == 1 else {
                return .error("usage: go URL, like go homes://listing/detail?kind=rent&id=3")
            }
            return mediator.screen(at: arguments[0])
        default:
            return nil
        }
    }
}
