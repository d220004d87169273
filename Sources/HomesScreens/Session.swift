import Foundation
import Signals
import TextViews

/// The REPL: reads a command per line, offers it to the shared commands, then to the
/// screen on top, and reads the next line once the work it started has settled (observed:
/// no screen's `isBusy`, which each screen derives from its view model, is true).
///
/// It lives on the main actor with the screens; lines are read off it, so responses land
/// and the screen redraws while the user types. On a terminal it draws what changed
/// (`showChangesAndSettle`) under a status line of the work in flight; piped, each
/// command's output is the screen once its work settled.
@MainActor
package final class Session {
    private let shared: (any SharedCommands)?
    /// The terminal; its width changes with the window (`resize`, in Session+Terminal).
    var terminal: Terminal
    /// Output goes above the line being edited once a line editor shares the terminal.
    let output: OutputRouter
    let write: @Sendable (String) -> Void, writeError: @Sendable (String) -> Void
    /// Whether any command failed (an error line was written): a piped run then exits with 1.
    package private(set) var hadErrors = false
    let stack: ScreenStack
    private var redraw: Disposable?
    /// A secret a command asked for, read once the line's commands have run.
    private var secretRequest: (prompt: String, then: (String) -> CommandOutcome)?
    lazy var status = StatusLine(write: write)
    /// Error lines of the line being run, shown under its screen on a terminal.
    private var errorsToShow: [String] = []
    /// True while a line's commands run (piped: and their work settles); a redraw then waits, noted in the other.
    var isRunningCommand = false, changedWhileRunning = false
    /// Where lines come from (set by `run`).
    private(set) var lines: LineSource?

    /// A session showing `root`, offering each command to `shared` before the screen on
    /// top, writing with `write` (from any thread, one text at a time); error lines go to
    /// `writeError` when not on a terminal.
    package init(
        root: any Screen, shared: (any SharedCommands)? = nil, terminal: Terminal,
        lifecycle: [any ScreenLifecycleObserver] = [], writeError: (@Sendable (String) -> Void)? = nil,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.shared = shared
        self.terminal = terminal
        let output = OutputRouter(OutputLock.serializing(write, colors: terminal.usesColor))
        self.output = output
        self.write = { output.write($0) }
        self.writeError = writeError ?? self.write
        stack = ScreenStack(root: root, lifecycle: lifecycle)
    }

    /// Shows the first screen once its first work settled, then runs one line of `source`
    /// after another (each read once the previous one settled) until its end or `quit`.
    /// `preparing` runs first, under a status line on a terminal (start-up work).
    package func run(from source: LineSource, preparing: (() async -> Void)? = nil) async {
        lines = source
        if let preparing {
            if terminal.isInteractive { status.start("starting") }
            await preparing()
            status.stop()
        }
        stack.showRoot()
        await settleAndShow()
        while let line = await source.next(completer) {
            guard await execute(line) else { break }
        }
    }

    /// Runs one command line (piped, echoed first, even one that cannot be split) and waits
    /// until its work settled; false when the session should end.
    ///
    /// Commands separated by `;` run one after another without waiting for each other's
    /// work (so `refresh; filter rooms 2` cancels the refresh in flight); the screen shows
    /// once, when the last has settled. A command declared to take the rest of its line
    /// (`ask`) takes it, `;` included.
    package func execute(_ line: String) async -> Bool {
        let parsed = CommandParser.commands(in: line, declarations: help)
        if case .success(let commands) = parsed, commands.isEmpty { return true }
        if !terminal.isInteractive { write("> \(line.trimmingCharacters(in: .whitespaces))\n") }
        if case .failure(let problem) = parsed {
            fail(problem.message)
            return true
        }
        (isRunningCommand, changedWhileRunning) = (true, false)
        defer { isRunningCommand = false }
        let shown = stack.top
        // Synchronously on the main actor: no response can land between the commands of a
        // line. Each is read as the screen shown when it runs declares it.
        var results: [Result] = []
        var rest: String? = line
        while let text = rest, results.last != .quit {
            let next = CommandParser.first(in: text, declarations: help)
            rest = next.rest
            if let command = next.command { results.append(run(command)) }
        }
        if let request = secretRequest {
            secretRequest = nil
            if let secret = await lines?.readSecret(prompt: request.prompt) {
                results.append(apply(request.then(secret)))
            } else {
                fail("a secret is read without echo on a terminal only; here, type it after the command")
            }
        }
        // On a terminal the next line is read while the work settles: the prompt stays live.
        if terminal.isInteractive && !results.contains(.quit) { lines?.start(completer) }
        if terminal.isInteractive {
            await showChangesAndSettle(since: shown)
        } else if results.contains(.changed) || changedWhileRunning {
            await settleAndShow()
        }
        errorsToShow.forEach(write)
        errorsToShow = []
        return !results.contains(.quit)
    }

    private enum Result { case quit, written, changed }
    /// The commands of the screen on top and the shared ones offered there, then the session's own.
    var help: [CommandHelp] { (stack.top?.declarations(with: shared) ?? []) + CommandHelp.session }

    /// Writes an error line (on a terminal under the screen, else to `writeError`) and notes
    /// a failure. A refusal changed nothing: the screen is drawn only if it changed (`watch`).
    @discardableResult private func fail(_ message: String) -> Result {
        hadErrors = true
        if terminal.isInteractive {
            errorsToShow.append("error: \(message)\n")
        } else {
            writeError("error: \(message)\n")
        }
        return .written
    }

    /// Runs one command: `.changed` when the screen should be shown once its work settles.
    private func run(_ input: Command) -> Result {
        switch input.name {
        case "quit", "exit": return .quit
        case "help":
            write(CommandHelp.table(help, width: terminal.width))
            return .written
        case "back":
            guard stack.canPop else { return fail("nothing to go back to") }
            stack.pop()
            return .changed
        default: break
        }
        guard let top = stack.top, let outcome = shared?.handle(input, on: top) ?? top.handle(input) else {
            return fail(UnknownCommand.message(for: input.name, known: help, behind: stack.behind, shared: shared))
        }
        return apply(outcome)
    }

    /// Does what a command's outcome says: `.changed` when the screen should be shown.
    private func apply(_ outcome: CommandOutcome) -> Result {
        switch outcome {
        case .error(let message): return fail(message)
        case .push(let screen): stack.push(screen)
        case .pushAfterError(let screen, let message):
            fail(message)
            stack.push(screen)
        case .note(let message):
            write(message + "\n")
            return .written
        case .secret(let prompt, let then):
            secretRequest = (prompt, then)
            return .written
        case .handled: break
        }
        return .changed
    }

    // MARK: - Settling and drawing

    /// Waits until the work of every screen (shown, below, or popped since the last
    /// settle) has settled, then draws the top one.
    private func settleAndShow() async {
        if terminal.isInteractive, let busy = stack.all.last(where: { $0.isBusy.value }) {
            status.start("\(busy.name): working")
        }
        await settled()
        status.stop()
        stack.forgetPopped()
        watch()
        draw()
    }

    /// Notes that the screen on top changed while a line's commands run (piped: while
    /// they run and their work settles), so it is drawn once they ran; on a terminal,
    /// redraws it whenever its view model changes after that, while its work settles and
    /// between commands (above the line being edited, which is drawn again below it as it
    /// was).
    func watch() {
        redraw?.dispose()
        guard let screen = stack.top else { return }
        redraw = screen.changes.observeOnMainActor { [weak self] in
            guard let self else { return }
            guard !self.isRunningCommand else { return self.changedWhileRunning = true }
            if self.terminal.isInteractive { self.draw() }
        }
    }
}
