import LineEditing
import Signals
import TextViews

// The session on a terminal (its line editor, a resize), and what it asks of its screens.

extension Session {
    /// Runs on a terminal: the line editor shows the prompt and keeps the history.
    package func runInteractively(preparing: (() async -> Void)? = nil) async {
        // History kept in `$XDG_STATE_HOME/homes/history`; with colours (a colour
        // terminal) the line is highlighted and the rest of it suggested from the history.
        let editor = LineEditor(
            history: LineHistory(appName: "homes"), colors: terminal.usesColor, write: output.direct)
        let display = editor.display
        let lines = LineSource.terminal(editor)
        output.attach(display)
        status.show = { display.setStatus($0) }
        // Ctrl-C at the prompt while work runs stops the work, as SIGINT does.
        display.onInterrupt { Task { @MainActor [weak self] in self?.interrupt() } }
        await run(from: lines, preparing: preparing)
    }

    /// Ctrl-C: stops the work in flight on every screen; true if there was some.
    @discardableResult package func interrupt() -> Bool {
        let busy = stack.all.filter { $0.isBusy.value }
        busy.forEach { $0.cancelWork() }
        return !busy.isEmpty
    }

    /// The terminal is `width` columns wide now (SIGWINCH): the screen is laid out again at
    /// once on a cleared screen, the line being edited (and the status of work in flight)
    /// below it; the terminal's own reflow of the old rows is wiped.
    package func resize(width: Int) {
        terminal = Terminal(isInteractive: terminal.isInteractive, width: width, usesColor: terminal.usesColor)
        guard terminal.isInteractive, let screen = stack.top else { return }
        output.writeScreen(screen.rootView.render(width: width).joined(separator: "\n") + "\n")
    }

    /// On a terminal: draws the screen on top if it is another than `shown` or what it
    /// shows changed while the line ran, then lets it redraw itself as each change of its
    /// view model lands (`watch`), and waits until the work of every screen settled. The
    /// end of the work is a change of the view model like any other: it draws nothing more.
    func showChangesAndSettle(since shown: (any Screen)?) async {
        let changed = changedWhileRunning || stack.top !== shown
        isRunningCommand = false
        if changed { draw() }
        watch()
        if let busy = stack.all.last(where: { $0.isBusy.value }) { status.start("\(busy.name): working") }
        await settled()
        status.stop()
        stack.forgetPopped()
    }

    /// Writes the screen on top at the terminal's width (above the line being edited, and
    /// the status of the work in flight, if any, shown again below it).
    func draw() {
        let lines = stack.top?.rootView.render(width: terminal.width) ?? []
        status.around { write(lines.joined(separator: "\n") + "\n") }
        self.lines?.screenChanged(completer)
    }

    /// What Tab offers on the screen shown, and how a line is coloured there.
    func completer() -> Completer { Completer(help: help, screen: stack.top) }

    /// Returns once no screen is busy. Each screen's `isBusy` is observed until it is
    /// false; a screen that turns busy again meanwhile (work started by a response) is
    /// waited for too, because the check repeats until every screen is idle at once.
    func settled() async {
        while let busy = stack.all.first(where: { $0.isBusy.value }) {
            for await isBusy in busy.isBusy.values where !isBusy { break }
        }
    }
}
