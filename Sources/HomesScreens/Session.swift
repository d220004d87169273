import Dispatch
import Foundation
import Mediator
import Networking
import Signals
import TextViews

/// The REPL: reads a command per line, hands it to the current screen on the app queue,
/// and shows the screen once the work it started has settled.
///
/// On a terminal the screen is also redrawn whenever bound state changes (a response
/// landing). With a piped script the output is deterministic: each command's output
/// appears after its work settled, with no prompts or spinners.
public final class Session {
    private let queue: DispatchQueue
    private let context: HomesContext
    private let terminal: Terminal
    private let write: (String) -> Void
    private let settleLimit: Duration
    private let lifecycle: [any ScreenLifecycleObserver]
    private var stack: [any Screen] = []
    /// Screens popped since the last settle: their work must settle too, so the next line
    /// never races it.
    private var popped: [any Screen] = []
    private var redraw: Disposable?
    /// True while a command runs (touched on the app queue): redraws wait for it to settle.
    private var isRunningCommand = false
    private let output = NSLock()

    /// A session showing `root`, running screens on `queue`, writing with `write`. A
    /// command's output waits until its work settles, at most `settleLimit` (longer than
    /// any request may take, so piped output stays deterministic).
    public init(root: any Screen, context: HomesContext, queue: DispatchQueue, terminal: Terminal,
                settleLimit: Duration = .seconds(30), lifecycle: [any ScreenLifecycleObserver] = [],
                write: @escaping (String) -> Void) {
        self.queue = queue
        self.lifecycle = lifecycle
        self.context = context
        self.terminal = terminal
        self.settleLimit = settleLimit
        let output = self.output
        // One writer: the REPL and redraws on the app queue never interleave their text.
        let colors = terminal.usesColor
        self.write = { text in
            // Error lines in red on a colour terminal; never with NO_COLOR or in a pipe.
            let shown = colors && text.hasPrefix("error: ") ? "\u{1B}[31m" + text.dropLast() + "\u{1B}[0m\n" : text
            output.lock()
            write(shown)
            output.unlock()
        }
        stack = [root]
    }

    /// Runs until end of input or `quit`.
    public func run(readLine: () -> String?) {
        queue.sync { if let root = stack.last { appeared(root) } }
        settleAndShow()
        while true {
            guard let line = readLine() else { break }
            guard execute(line) else { break }
        }
    }

    /// Runs on a terminal: the line editor shows the prompt and keeps the history.
    public func runInteractively() {
        let editor = LineEditor(write: write)
        run { editor.readLine(prompt: "homes> ") }
    }

    /// Runs one command line; false when the session should end.
    ///
    /// Commands separated by `;` run one after another without waiting for each other's
    /// work (so `refresh; filter rooms 2` cancels the refresh in flight); the screen shows
    /// once, when the last has settled. `ask` takes the rest of its line, `;` included.
    public func execute(_ line: String) -> Bool {
        queue.sync { isRunningCommand = true }
        defer { queue.sync { isRunningCommand = false } }
        let commands = CommandParser.commands(in: line)
        guard !commands.isEmpty else { return true }
        if !terminal.isInteractive { write("> \(line.trimmingCharacters(in: .whitespaces))\n") }
        // One turn of the app queue: no response can land between the commands of a line.
        let results: [Result] = queue.sync {
            var results: [Result] = []
            for words in commands where results.last != .quit {
                results.append(run(words[0].lowercased(), Array(words.dropFirst())))
            }
            return results
        }
        if results.contains(.changed) { settleAndShow() }
        return !results.contains(.quit)
    }

    private enum Result { case quit, written, changed }

    /// Runs one command on the app queue: `.changed` when the screen should be shown once
    /// its work settles.
    private func run(_ command: String, _ arguments: [String]) -> Result {
        switch command {
        case "quit", "exit":
            return .quit
        case "help":
            write(help())
            return .written
        case "back":
            if stack.count > 1 { pop() } else { write("error: nothing to go back to\n") }
            return .changed
        default:
            break
        }
        let outcome = AppCommands(context: context).handle(command, arguments) ?? stack.last?.handle(command, arguments)
        switch outcome {
        case nil:
            write("error: unknown command \(command); type help for the commands of this screen\n")
            return .written
        case .error(let message)?:
            write("error: \(message)\n")
        case .push(let screen)?:
            push(screen)
        case .pushAfterError(let screen, let message)?:
            write("error: \(message)\n")
            push(screen)
        case .note(let message)?:
            write(message + "\n")
            return .written
        case .handled?:
            break
        }
        return .changed
    }

    // MARK: - Navigation (on the app queue)

    private func push(_ screen: any Screen) {
        if let top = stack.last { lifecycle.forEach { $0.screenDidDisappear(top.name) } }
        stack.append(screen)
        appeared(screen)
    }

    private func pop() {
        let top = stack.removeLast()
        popped.append(top)
        lifecycle.forEach { $0.screenDidDisappear(top.name) }
        if let now = stack.last { appeared(now) }
    }

    private func appeared(_ screen: any Screen) {
        lifecycle.forEach { $0.screenDidAppear(screen.name) }
    }

    private func help() -> String {
        let commands = (stack.last?.commands ?? []) + AppCommands.help + [
            CommandHelp(usage: "back", summary: "return to the previous screen"),
            CommandHelp(usage: "help", summary: "list these commands"),
            CommandHelp(usage: "quit", summary: "leave homes"),
        ]
        let usageWidth = min(24, (commands.map { DisplayText.width($0.usage) }.max() ?? 0))
        let summaryWidth = max(20, terminal.width - usageWidth - 4)
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

    /// Waits (up to `settleLimit`) until the work of every screen (shown, below, or popped
    /// since the last settle) has settled, then draws the top one.
    private func settleAndShow() {
        let deadline = ContinuousClock.now + settleLimit
        while queue.sync(execute: { (stack + popped).contains { $0.isBusy } }), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
        let lines: [String] = queue.sync {
            popped = []
            if terminal.isInteractive { watch() }
            return stack.last?.rootView.render(width: terminal.width) ?? []
        }
        write(lines.joined(separator: "\n") + "\n")
    }

    /// On a terminal, redraws the screen whenever its bound state changes.
    private func watch() {
        redraw?.dispose()
        guard let screen = stack.last else { return }
        redraw = screen.changes.observe { [weak self, weak screen] in
            guard let self, let screen, !self.isRunningCommand else { return }
            let lines = screen.rootView.render(width: self.terminal.width)
            self.write("\n" + lines.joined(separator: "\n") + "\nhomes> ")
        }
    }
}
