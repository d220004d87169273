import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Facts about the terminal the REPL talks to.
package struct Terminal: Sendable {
    /// Whether a person is typing (stdin is a terminal), rather than a piped script.
    package let isInteractive: Bool
    /// The width to render to: the terminal's, `$COLUMNS`, or 80.
    package let width: Int
    /// Whether to colour output: on a terminal, unless `NO_COLOR` is set (no-color.org)
    /// or `TERM` is `dumb`.
    package let usesColor: Bool

    /// A terminal description, for tests.
    package init(isInteractive: Bool, width: Int, usesColor: Bool = false) {
        self.isInteractive = isInteractive
        self.width = width
        self.usesColor = usesColor
    }

    /// The terminal this process talks to.
    package static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Terminal {
        let interactive = isatty(STDIN_FILENO) == 1
        var width = 80
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns >= 20 {
            width = columns
        } else if interactive {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 20 { width = Int(size.ws_col) }
        }
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        return Terminal(
            isInteractive: interactive, width: min(width, 200),
            usesColor: interactive && isatty(STDOUT_FILENO) == 1 && !noColor)
    }
}
