/// Commands every screen has (signing in, the favourites, links), answered by the app
/// before the screen on top is asked.
@MainActor
package protocol SharedCommands {
    /// The commands, for `help` and Tab.
    var commands: [CommandHelp] { get }
    /// Handles `command`; nil when it is not one of these.
    func handle(_ command: Command) -> CommandOutcome?
}
