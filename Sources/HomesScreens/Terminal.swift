import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Facts about the terminal the REPL talks to.
public struct Terminal: Sendable {
    /// Whether a person is typing (stdin is a terminal), rather than a piped script.
    public let isInteractive: Bool
    /// The width to render to: the terminal's, `$COLUMNS`, or 80.
    public let width: Int

    /// A terminal description, for tests.
    public init(isInteractive: Bool, width: Int) {
        self.isInteractive = isInteractive
        self.width = width
    }

    /// The terminal this process talks to.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Terminal {
        let interactive = isatty(STDIN_FILENO) == 1
        var width = 80
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns >= 20 {
            width = columns
        } else if interactive {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { width = Int(size.ws_col) }
        }
        return Terminal(isInteractive: interactive, width: min(width, 200))
    }
}
