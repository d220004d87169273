import Dispatch
import Foundation
import LineEditing
import Synchronization

/// What Tab offers on the screen shown: its commands, then the words each command's
/// arguments may be (its flags among them), and file paths after a flag whose value is a
/// file; and how the line is read there (`CommandParser`, with these declarations).
package struct Completer: Sendable {
    /// The commands of the screen shown, the app's and the session's, as declared.
    let declarations: [CommandHelp]
    let commands: [String]
    let arguments: [String: [String]]
    /// The commands that take a listing number (`open N`), with the numbers that name one.
    let numbered: [String: Set<Int>]

    /// What Tab offers for the commands of `help` (and their aliases), with the words
    /// `screen` takes for their arguments.
    @MainActor
    init(help: [CommandHelp], screen: (any Screen)?) {
        declarations = help
        let names = help.flatMap(\.names) + ["exit"]
        arguments = Dictionary(
            names.map { name in
                (name, (screen?.completions(for: name) ?? []) + (help.declaration(of: name)?.flags.map(\.name) ?? []))
            }
        ) { first, _ in first }
        commands = Array(Set(names)).sorted()
        let usages = help.map { $0.usage.split(separator: " ").map(String.init) }
        numbered = Dictionary(
            usages.filter { $0.count == 2 && $0[1] == "N" }.map { usage in
                (usage[0], Set((screen?.completions(for: usage[0]) ?? []).compactMap { Int($0) }))
            }
        ) { first, _ in first }
    }

    /// Candidates for the word being typed at the end of `text` (the text before the cursor).
    func complete(_ text: String) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let partial = words.last ?? ""
        guard words.count > 1 else { return commands.filter { $0.hasPrefix(partial.lowercased()) } }
        let flags = declarations.declaration(of: words[0].lowercased())?.flags ?? []
        if flags.contains(where: { $0.takesFile && $0.name == words[words.count - 2] }) {
            return Self.paths(startingWith: partial)
        }
        let candidates = arguments[words[0].lowercased()] ?? []
        return candidates.filter { $0.lowercased().hasPrefix(partial.lowercased()) }
    }

    /// The files and folders whose path starts with `partial` (`~` is the home folder, as
    /// the command that runs takes it: `HOME`, else the account's).
    static func paths(startingWith partial: String, home: String = CommandParser.homeFolder()) -> [String] {
        let expanded = partial.hasPrefix("~") ? home + partial.dropFirst() : partial
        let folder = expanded.hasSuffix("/") ? expanded : (expanded as NSString).deletingLastPathComponent
        let prefix = expanded.hasSuffix("/") ? "" : (expanded as NSString).lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return names.filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map {
            name in
            let path = folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let shown = partial.hasPrefix("~") ? "~" + path.dropFirst(home.count) : path
            return shown + (isFolder.boolValue ? "/" : "")
        }
    }
}
