import Signals
import TextViews

/// A screen of the REPL: a controller's root view and the commands it takes.
@MainActor
package protocol Screen: AnyObject {
    /// The screen's name for the prompt.
    var name: String { get }
    /// What the screen shows, to tell two screens apart: a screen that shows the same as
    /// the one on top is not pushed again. By default its name.
    var identity: String { get }
    /// The link that opens this screen again as it is now (`homes://listing/list?kind=new`),
    /// through the mediator like any other; nil for a screen no link opens. By default nil.
    var link: String? { get }
    /// What to draw.
    var rootView: any TextView { get }
    /// The commands of this screen.
    var commands: [CommandHelp] { get }
    /// True while work the screen started has not settled (a request in flight); the
    /// REPL observes it to know when a command's work is done. A screen that starts work
    /// derives it from its view model (`viewModel.map(\.isBusy)`), so it is the state the
    /// screen shows, never a flag kept beside it; one that starts none is always false.
    var isBusy: Property<Bool> { get }
    /// Sends `()` whenever the screen's view model changed (an equal one sends nothing),
    /// so the REPL redraws what changed.
    var changes: Signal<Void> { get }
    /// Handles a command of this screen; nil when it is not one of its commands.
    func handle(_ command: Command) -> CommandOutcome?
    /// Stops the work in flight (Ctrl-C): requests are cancelled and the screen says so.
    func cancelWork()
    /// The words Tab offers for the arguments of `command` (kinds, keys, numbers shown).
    func completions(for command: String) -> [String]
}

extension Screen {
    /// The screen's name: one screen of its kind at the top at a time.
    package var identity: String { name }

    /// None: no link opens the screen.
    package var link: String? { nil }

    /// Does nothing: the screen starts no work of its own.
    package func cancelWork() {}

    /// None: the screen's commands take no words Tab could guess.
    package func completions(for command: String) -> [String] { [] }

    /// Handles the command `name` with `arguments` and no flags.
    package func handle(_ name: String, _ arguments: [String]) -> CommandOutcome? {
        handle(Command(name: name, arguments: arguments))
    }
}
