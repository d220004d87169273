import Dispatch
import Foundation
import LineEditing
import Synchronization

/// Where a session's lines come from: a piped script or a person at a terminal.
///
/// Reads happen off the main actor (a blocking read never holds it up); the session gets
/// each line back on the main actor.
@MainActor
public protocol LineSource {
    /// The next line, nil at end of input; `completer` says what Tab offers right now.
    func nextLine(completer: Completer) async -> String?
    /// A secret read without echo (never stored); nil when it cannot be read hidden.
    func readSecret(prompt: String) async -> String?
}

/// Lines from a script: `read` is called once per line, off the main actor.
public struct PipedLines: LineSource {
    private let reader: LineReader

    /// Lines that `read` returns, nil at the end.
    public init(_ read: @escaping @Sendable () -> String?) {
        reader = LineReader(read)
    }

    public func nextLine(completer: Completer) async -> String? {
        await reader.next()
    }

    /// Nothing typed in a script is hidden.
    public func readSecret(prompt: String) async -> String? {
        nil
    }
}

/// Lines typed at a terminal, through the line editor: editing keys, history kept in
/// `$XDG_STATE_HOME/homes/history`, Tab completion, and secrets neither echoed nor kept.
public struct TerminalLines: LineSource {
    private let editor: LockedEditor
    private let reader = LineReader { nil }

    /// Lines read by a line editor that echoes with `write`.
    public init(write: @escaping @Sendable (String) -> Void) {
        editor = LockedEditor(LineEditor(history: LineHistory(appName: "homes"), write: write))
    }

    public func nextLine(completer: Completer) async -> String? {
        let editor = self.editor
        return await reader.next { editor.readLine(prompt: "homes> ", completer: completer) }
    }

    public func readSecret(prompt: String) async -> String? {
        let editor = self.editor
        return await reader.next { editor.readSecret(prompt: prompt) }
    }
}

/// What Tab offers on the screen shown: its commands, then the words each command's
/// arguments may be, and file paths after `--photo`.
public struct Completer: Sendable {
    let commands: [String]
    let arguments: [String: [String]]

    /// Candidates for the word being typed at the end of `text` (the text before the cursor).
    func complete(_ text: String) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let partial = words.last ?? ""
        guard words.count > 1 else { return commands.filter { $0.hasPrefix(partial.lowercased()) } }
        if words[words.count - 2] == "--photo" { return Self.paths(startingWith: partial) }
        let candidates = arguments[words[0].lowercased()] ?? []
        return candidates.filter { $0.lowercased().hasPrefix(partial.lowercased()) }
    }

    /// The files and folders whose path starts with `partial` (`~` is the home folder).
    static func paths(startingWith partial: String) -> [String] {
        let home = NSHomeDirectory()
        let expanded = partial.hasPrefix("~") ? home + partial.dropFirst() : partial
        let folder = expanded.hasSuffix("/") ? expanded : (expanded as NSString).deletingLastPathComponent
        let prefix = expanded.hasSuffix("/") ? "" : (expanded as NSString).lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return names.filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { name in
            let path = folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let shown = partial.hasPrefix("~") ? "~" + path.dropFirst(home.count) : path
            return shown + (isFolder.boolValue ? "/" : "")
        }
    }
}

/// Secrets typed on a command line (`password SECRET`, `login USER PASSWORD`) are shown
/// as `•••` once the line is entered, and such a line is not kept in the history.
enum Secrets {
    /// The line as it may be shown and remembered, or nil when it holds no secret.
    static func redacted(_ line: String) -> String? {
        guard case .success(let commands) = CommandParser.commands(in: line) else { return nil }
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

/// Serializes writes to the output, which come from the main actor and the line
/// editor's thread.
final class OutputLock: Sendable {
    private let lock = Mutex(())

    func withLock(_ body: () -> Void) {
        lock.withLock { _ in body() }
    }

    /// `write` made safe to call from several threads at once, with error lines in red
    /// when `colors` (a colour terminal; never with NO_COLOR, TERM=dumb or in a pipe).
    static func serializing(_ write: @escaping @Sendable (String) -> Void, colors: Bool) -> @Sendable (String) -> Void {
        let output = OutputLock()
        return { text in
            let shown = colors && text.hasPrefix("error: ") ? "\u{1B}[31m" + text.dropLast() + "\u{1B}[0m\n" : text
            output.withLock { write(shown) }
        }
    }
}

/// The line editor, used from the reading thread only, one line at a time.
final class LockedEditor: Sendable {
    private let editor: Mutex<LineEditor>

    init(_ editor: sending LineEditor) {
        self.editor = Mutex(editor)
    }

    func readLine(prompt: String, completer: Completer) -> String? {
        editor.withLock { $0.readLine(prompt: prompt, complete: completer.complete, redact: Secrets.redacted) }
    }

    func readSecret(prompt: String) -> String? {
        editor.withLock { $0.readSecret(prompt: prompt) }
    }
}

/// Runs blocking reads off the main actor, one at a time, on a queue of its own.
final class LineReader: Sendable {
    private let queue = DispatchQueue(label: "homes.input")
    private let read: @Sendable () -> String?

    init(_ read: @escaping @Sendable () -> String?) {
        self.read = read
    }

    /// The result of `read` (by default the one given at init).
    func next(_ read: (@Sendable () -> String?)? = nil) async -> String? {
        let body = read ?? self.read
        return await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
