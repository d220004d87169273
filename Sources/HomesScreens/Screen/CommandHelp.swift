import Signals
import TextViews

/// One command a screen understands, for `help`.
package struct CommandHelp: Sendable {
    /// The commands the session answers itself, on every screen.
    static let session = [
        CommandHelp(usage: "back", summary: "return to the previous screen"),
        CommandHelp(usage: "help", summary: "list these commands"),
        CommandHelp(usage: "quit", summary: "leave homes"),
    ]

    /// How to type it.
    package let usage: String
    /// What it does.
    package let summary: String

    /// Describes a command.
    package init(usage: String, summary: String) {
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
                let usage =
                    index == 0
                    ? DisplayText.fit(command.usage, to: usageWidth) : String(repeating: " ", count: usageWidth)
                lines.append("  " + usage + "  " + part)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
