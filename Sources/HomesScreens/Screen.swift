import Signals
import TextViews

/// One command a screen understands, for `help`.
public struct CommandHelp: Sendable {
    /// How to type it.
    public let usage: String
    /// What it does.
    public let summary: String

    /// Describes a command.
    public init(usage: String, summary: String) {
        self.usage = usage
        self.summary = summary
    }
}

extension CommandHelp {
    /// `commands` as two columns, usage and summary, the summaries wrapped to `width`.
    static func table(_ commands: [CommandHelp], width: Int) -> String {
        let usageWidth = min(24, (commands.map { DisplayText.width($0.usage) }.max() ?? 0))
        let summaryWidth = max(20, width - usageWidth - 4)
        var lines: [String] = []
        for command in commands {
            let summary = DisplayText.wrap(command.summary, to: summaryWidth)
            for (index, part) in summary.enumerated() {
                let usage = index == 0 ? DisplayText.fit(command.usage, to: usageWidth) : String(repeating: " ", count: usageWidth)
                lines.append("  " + usage + "  " + part)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// What a command did to the session.
public enum CommandOutcome {
    /// Handled; the screen stays.
    case handled
    /// The command was not understood or was malformed: print this one line.
    case error(String)
    /// Show a new screen on top.
    case push(any Screen)
    /// Print the error, then show a new screen on top.
    case pushAfterError(any Screen, String)
    /// Print this line; the screen is not drawn again.
    case note(String)
    /// Ask for a secret without echo (on a terminal), then do what `then` says with it.
    case secret(prompt: String, then: (String) -> CommandOutcome)
}

/// A screen of the REPL: a controller's root view and the commands it takes.
@MainActor
public protocol Screen: AnyObject {
    /// The screen's name for the prompt.
    var name: String { get }
    /// What the screen shows, to tell two screens apart: a screen that shows the same as
    /// the one on top is not pushed again. By default its name.
    var identity: String { get }
    /// What to draw.
    var rootView: any TextView { get }
    /// The commands of this screen.
    var commands: [CommandHelp] { get }
    /// True while work the screen started has not settled (a request in flight); the
    /// REPL observes it to know when a command's work is done.
    var isBusy: Property<Bool> { get }
    /// Sends `()` whenever bound state changed, so the REPL can redraw.
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
    public var identity: String { name }

    /// Does nothing: the screen starts no work of its own.
    public func cancelWork() {}

    /// None: the screen's commands take no words Tab could guess.
    public func completions(for command: String) -> [String] { [] }

    /// Handles the command `name` with `arguments` and no flags.
    public func handle(_ name: String, _ arguments: [String]) -> CommandOutcome? {
        handle(Command(name: name, arguments: arguments))
    }
}

/// Sees every screen appear and disappear: how app-wide behaviour (page-view logging) is
/// added to every controller without a base class.
@MainActor
public protocol ScreenLifecycleObserver: AnyObject {
    /// The screen named `name` is now shown.
    func screenDidAppear(_ name: String)
    /// The screen named `name` is no longer shown.
    func screenDidDisappear(_ name: String)
}

extension ScreenLifecycleObserver {
    /// Does nothing.
    public func screenDidDisappear(_ name: String) {}
}
