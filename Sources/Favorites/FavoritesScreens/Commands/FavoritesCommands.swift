import FavoritesCategory
import HomesScreens
import Mediator

/// The favourites' command on every screen: `favs` opens them.
@MainActor
package struct FavoritesCommands: SharedCommands {
    private let mediator: Mediator

    /// The command, opening the favourites through `mediator`.
    package init(mediator: Mediator) {
        self.mediator = mediator
    }

    package func commands(on screen: any Screen) -> [CommandHelp] {
        [CommandHelp(usage: "favs", summary: "show the favourites")]
    }

    package func handle(_ command: Command, on screen: any Screen) -> CommandOutcome? {
        guard command.name == "favs" else { return nil }
        return command.arguments.isEmpty ? mediator.favoritesList() : .error("usage: favs")
    }
}
