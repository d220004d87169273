/// A session's next line, read ahead while the last line's work settles (on a terminal):
/// the prompt stays live meanwhile, and a line being read is told when the screen changes.
@MainActor
final class ReadAhead {
    private var source: (any LineSource)?
    private var reading: Task<String?, Never>?

    /// Reads from `source` from now on.
    func attach(_ source: any LineSource) {
        self.source = source
    }

    /// Starts reading the next line, with what Tab offers now, unless one is being read.
    func start(_ completer: () -> Completer) {
        guard reading == nil, let source else { return }
        let completer = completer()
        reading = Task { await source.nextLine(completer: completer) }
    }

    /// The next line: the one being read ahead, or one read now; nil at the end.
    func next(_ completer: () -> Completer) async -> String? {
        start(completer)
        let line = await reading?.value
        reading = nil
        return line
    }

    /// Tells a line being read that the screen in front changed (its colours and Tab).
    func screenChanged(_ completer: () -> Completer) {
        guard reading != nil else { return }
        source?.screenChanged(completer: completer())
    }
}
