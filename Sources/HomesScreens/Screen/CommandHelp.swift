import Foundation
import Signals
import TextViews

/// One command a screen understands, as the screen declares it: for `help`, for Tab and
/// the line's colours, and for the parser that splits the line (its flags, whether it
/// takes the rest of its line). The shell knows no feature's flag: a command's flags are
/// known by what its screen declares here.
package struct CommandHelp: Sendable {
    /// The commands the session answers itself, on every screen.
    static let session = [
        CommandHelp(usage: "back", summary: "return to the previous screen"),
        CommandHelp(usage: "help", summary: "list these commands"),
        CommandHelp(usage: "quit", summary: "leave homes"),
    ]

    /// A flag a command takes, followed by its value (`--photo FILE`).
    package struct Flag: Equatable, Sendable {
        /// The flag as typed, `--` included.
        package let name: String
        /// Whether its value is a file (Tab then offers paths).
        package let takesFile: Bool

        /// A flag named `name`, whose value is a file when `takesFile`.
        package init(_ name: String, takesFile: Bool = false) {
            self.name = name
            self.takesFile = takesFile
        }
    }

    /// How to type it.
    package let usage: String
    /// What it does.
    package let summary: String
    /// The flags it takes, each with one value. A flag is one only as a whole unquoted
    /// word, either before the other words or as the last two.
    package let flags: [Flag]
    /// Whether it takes the rest of its line, `;` included (a message).
    package let takesRestOfLine: Bool

    /// Describes a command: how to type it, what it does, and how its line is read.
    package init(usage: String, summary: String, flags: [Flag] = [], takesRestOfLine: Bool = false) {
        self.usage = usage
        self.summary = summary
        self.flags = flags
        self.takesRestOfLine = takesRestOfLine
    }

    /// The names it is typed by: the first word of its usage, or of each alternative
    /// (`offline / online`).
    package var names: [String] {
        usage.components(separatedBy: " / ").compactMap { $0.split(separator: " ").first.map { $0.lowercased() } }
    }
}

extension [CommandHelp] {
    /// The declaration of the command named `name` (in lower case), the first if several.
    func declaration(of name: String) -> CommandHelp? {
        first { $0.names.contains(name) }
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
                let usage =
                    index == 0
                    ? DisplayText.fit(command.usage, to: usageWidth) : String(repeating: " ", count: usageWidth)
                lines.append("  " + usage + "  " + part)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
