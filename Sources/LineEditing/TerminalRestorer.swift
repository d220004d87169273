import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Puts the terminal back as it was: when the app leaves on SIGTERM or SIGHUP
/// (`restore()`), and, if the process is stopped by a fatal signal while the line editor
/// holds standard input raw, from the signal handler (restoring is async-signal-safe:
/// `tcsetattr` and `write` of constant bytes, no allocation, no lock) before the signal
/// proceeds.
public enum TerminalRestorer {
    /// The settings standard input had when first asked for: read once, before any change,
    /// and never written again, so the signal handlers read it without a lock.
    private static let original: termios = {
        var settings = termios()
        tcgetattr(STDIN_FILENO, &settings)
        return settings
    }()
    private static let installed = Atomic(false)
    /// True while the editor holds standard input raw.
    private static let active = Atomic(false)

    /// Remembers the terminal's settings (the first call only) and installs the handlers
    /// that restore them on a fatal signal.
    static func save() {
        _ = original
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Between reads the terminal stays quiet (see `RawMode.settle()`): however the
        // process ends, it leaves the terminal as it found it.
        atexit { TerminalRestorer.restore() }
        for fatal in [SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE] {
            _ = signal(fatal) { number in
                if TerminalRestorer.active.load(ordering: .acquiring) {
                    var settings = TerminalRestorer.original
                    tcsetattr(STDIN_FILENO, TCSANOW, &settings)
                    let pasteOff: StaticString = "\u{1B}[?2004l"
                    _ = write(STDOUT_FILENO, pasteOff.utf8Start, pasteOff.utf8CodeUnitCount)
                }
                _ = signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// The settings standard input had before the editor changed them.
    static var savedSettings: termios { original }

    /// Records whether the editor holds standard input raw right now.
    static func setActive(_ isActive: Bool) {
        active.store(isActive, ordering: .releasing)
    }

    /// Restores the terminal settings the line editor found, if it holds the terminal raw.
    public static func restore() {
        guard installed.load(ordering: .acquiring), active.exchange(false, ordering: .acquiringAndReleasing) else {
            return
        }
        var settings = original
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        let pasteOff: StaticString = "\u{1B}[?2004l"
        _ = write(STDOUT_FILENO, pasteOff.utf8Start, pasteOff.utf8CodeUnitCount)
    }
}

/// A terminal held in raw mode: bytes come as typed, nothing is echoed, no signal keys.
/// Output processing stays on, so text written by others still starts its lines right.
///
/// Between two reads the terminal is not put back as it was but settled (`settle()`):
/// still no echo and no line editing by the terminal, so keys typed while a command runs
/// are neither echoed by the terminal (twice, with the editor's own echo, or a password
/// typed ahead) nor reordered, and the next read gets them as typed; Ctrl-C and Ctrl-Z
/// signal again. The terminal's own settings come back when the process ends
/// (`TerminalRestorer`).
struct RawMode {
    private let descriptor: Int32
    private let raw: termios

    /// Switches `descriptor` to raw mode; nil when it is not a terminal.
    init?(_ descriptor: Int32) {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        self.descriptor = descriptor
        if descriptor == STDIN_FILENO {
            TerminalRestorer.save()
            // From the terminal's own settings, not the settled ones of the last read.
            settings = TerminalRestorer.savedSettings
        }
        var raw = settings
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        self.raw = raw
        // TCSANOW, not TCSAFLUSH: keys typed ahead are kept.
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        if descriptor == STDIN_FILENO { TerminalRestorer.setActive(true) }
    }

    /// Ends a read: raw mode with the signal keys back on, until the next read.
    func settle() {
        var settled = raw
        settled.c_lflag |= tcflag_t(ISIG)
        tcsetattr(descriptor, TCSANOW, &settled)
    }
}
