import Dispatch
import Foundation
import LineEditing
import Synchronization

/// Secrets typed on a command line (`password SECRET`, `login USER PASSWORD`) are shown
/// as `•••` once the line is entered, and such a line is not kept in the history.
enum Secrets {
    /// The line as it may be shown and remembered, or nil when it holds no secret; it is
    /// split as `declarations` say (a message taking the rest of its line hides nothing).
    static func redacted(_ line: String, declarations: [CommandHelp]) -> String? {
        guard case .success(let commands) = CommandParser.commands(in: line, declarations: declarations) else {
            return nil
        }
        var hidden = false
        let shown = commands.map { command -> String in
            var words = command.arguments
            if command.name == "password", !words.isEmpty {
                words = ["•••"]
            } else if command.name == "login", words.count == 2 {
                words[1] = "•••"
            }
            hidden = hidden || words != command.arguments
            return ([command.name] + words).joined(separator: " ")
        }
        return hidden ? shown.joined(separator: "; ") : nil
    }
}
