import Foundation

/// Splits a REPL line into commands, the way a shell splits words.
///
/// Words are separated by blanks; double quotes group words (with `\"` and `\\` inside),
/// single quotes group them literally, and a backslash outside quotes takes the next
/// character as it is. An unquoted `~` or `~/` at the start of a word is the home
/// folder, `$HOME` as shells take it. `;` outside quotes separates commands, except that `ask` takes the rest of its
/// line. A flag (`--photo FILE`) is one only as a whole unquoted word, either before the
/// other words or as the last two: `ask what does --photo do` is a question.
enum CommandParser {
    /// The flags each command takes; each takes one value.
    static let flags: [String: Set<String>] = ["ask": ["--photo"]]

    /// What is wrong with a line that cannot be split.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// A word and whether any of it was quoted (a quoted word is never a flag).
    struct Word: Equatable {
        var text = ""
        var isQuoted = false
    }

    /// The commands on `line`; empty commands are skipped.
    static func commands(in line: String, home: String = homeFolder()) -> Result<[Command], Problem> {
        var commands: [Command] = []
        let scanned = scan(line)
        if scanned.openQuote != nil { return .failure(Problem(message: "a quote is not closed")) }
        for words in scanned.commands {
            if let command = command(from: words.map { expandingHome($0.word, home: home) }) {
                commands.append(command)
            }
        }
        return .success(commands)
    }

    /// The folder `~` names: `HOME`, as shells take it, or the account's home folder from
    /// the system when `HOME` is unset or empty.
    static func homeFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// `~` and `~/...` (unquoted, at the start of a word) name the home folder.
    private static func expandingHome(_ word: Word, home: String) -> Word {
        guard !word.isQuoted, word.text == "~" || word.text.hasPrefix("~/") else { return word }
        return Word(text: home + word.text.dropFirst(), isQuoted: false)
    }

    /// A command from its words, with its flags taken out where they stand as flags.
    private static func command(from words: [Word]) -> Command? {
        guard let first = words.first else { return nil }
        let name = first.text.lowercased()
        var rest = Array(words.dropFirst())
        var options: [String: String] = [:]
        let known = flags[name] ?? []
        func isFlag(_ index: Int) -> Bool {
            index + 1 < rest.count && !rest[index].isQuoted && known.contains(rest[index].text)
        }
        while isFlag(0) {
            options[rest[0].text] = rest[1].text
            rest.removeFirst(2)
        }
        if rest.count >= 2, isFlag(rest.count - 2), options[rest[rest.count - 2].text] == nil {
            options[rest[rest.count - 2].text] = rest[rest.count - 1].text
            rest.removeLast(2)
        } else if let last = rest.last, !last.isQuoted, known.contains(last.text) {
            // A flag with its value missing: the command says what it needs.
            options[last.text] = ""
            rest.removeLast()
        }
        return Command(name: name, arguments: rest.map(\.text), options: options)
    }
}
