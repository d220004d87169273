import HomesScreens
import ListingsCategory
import Mediator

/// The saved searches' commands on a listing list, the screen that shows what a search
/// is: `save [--name NAME]` keeps the list's kind and filters, `saved` lists the saved
/// searches. The `--name` flag is declared here, with its command.
@MainActor
package struct SavedSearchCommands: SharedCommands {
    private let mediator: Mediator

    /// The commands, reaching the saved searches and the listings through `mediator`.
    package init(mediator: Mediator) {
        self.mediator = mediator
    }

    package func commands(on screen: any Screen) -> [CommandHelp] {
        guard mediator.listingQuery(shownOn: screen) != nil else { return [] }
        return [
            CommandHelp(
                usage: "save [--name NAME]", summary: "save this list's kind and filters as a search",
                flags: [CommandHelp.Flag("--name")]),
            CommandHelp(usage: "saved", summary: "show the saved searches"),
        ]
    }

    package func handle(_ command: Command, on screen: any Screen) -> CommandOutcome? {
        guard command.name == "save" || command.name == "saved", let query = mediator.listingQuery(shownOn: screen)
        else { return nil }
        guard command.name == "save" else {
            return command.arguments.isEmpty ? mediator.savedSearchList() : .error("usage: saved")
        }
        guard command.arguments.isEmpty else { return .error("usage: save [--name NAME]") }
        if command.options["--name"]?.isEmpty == true { return .error("usage: save --name NAME: --name needs a name") }
        return mediator.saveSearch(query, name: command.options["--name"])
    }
}
