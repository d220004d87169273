import Dispatch
import Synchronization
import TerminalTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal for the editor to read from: a real terminal (so raw mode and the
/// window size are the kernel's), whose keys the test types on the other side.
final class PseudoTerminal: Sendable {
    /// The side the test types into.
    let master: Int32
    /// The side the editor reads, a terminal.
    let terminal: Int32
    private let closed = Atomic(false)

    struct Failure: Error {
        let step: String
    }

    /// A terminal `columns` wide, already raw, so no key typed before the editor starts is
    /// taken by the line discipline (DEL, Ctrl-U, Ctrl-W would edit the input otherwise).
    init(columns: Int = 80, rows: Int = 24) throws {
        var master: Int32 = -1
        var terminal: Int32 = -1
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &terminal, nil, nil, &size) == 0 else { throw Failure(step: "openpty") }
        self.master = master
        self.terminal = terminal
        var settings = termios()
        tcgetattr(terminal, &settings)
        cfmakeraw(&settings)
        tcsetattr(terminal, TCSANOW, &settings)
        // Should the editor wait for a key the test never types, hang up rather than hang.
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { [weak self] in self?.hangUp() }
    }

    func resize(columns: Int, rows: Int = 24) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Types `text` (its UTF-8 bytes).
    func type(_ text: String) {
        guard !closed.load(ordering: .acquiring) else { return }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// How many typed bytes the editor has not read yet.
    var unread: Int {
        var count: Int32 = 0
        return ioctl(terminal, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// Closes the typing side: the editor reads the end of input.
    func hangUp() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        close(master)
    }

    deinit {
        hangUp()
        close(terminal)
    }
}

/// Keys typed on a pseudo-terminal one step at a time: the first step when the editor
/// first writes (its prompt), each next one once it has read the step before and drawn it
/// (should a step come in two reads, the editor writes twice, and the next step waits for
/// the second). What the editor wrote is kept, and shown on a screen emulator.
final class TypingSession {
    let pty: PseudoTerminal
    private var steps: [String]
    private let hangsUpAtTheEnd: Bool
    /// Everything the editor wrote, one element per write.
    private(set) var writes: [String] = []
    var screen: ScreenEmulator
    /// Called with the screen once the prompt is drawn, then once each step is.
    var onStep: (ScreenEmulator) -> Void = { _ in }

    init(columns: Int = 80, _ steps: [String], hangsUpAtTheEnd: Bool = false) throws {
        pty = try PseudoTerminal(columns: columns)
        self.steps = steps
        self.hangsUpAtTheEnd = hangsUpAtTheEnd
        screen = ScreenEmulator(columns: columns)
    }

    /// Types everything now, for editors that write nothing as keys come (a secret).
    func typeAll() {
        steps.forEach(pty.type)
        steps = []
    }

    /// The `write` to give the editor.
    func write(_ text: String) {
        writes.append(text)
        screen.feed(text)
        guard pty.unread == 0 else { return }
        onStep(screen)
        if !steps.isEmpty {
            pty.type(steps.removeFirst())
        } else if hangsUpAtTheEnd {
            pty.hangUp()
        }
    }

    /// Everything written, in one string.
    var output: String { writes.joined() }
}
