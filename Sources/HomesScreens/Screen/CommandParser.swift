import Foundation

/// Splits a REPL line into commands, the way a shell splits words.
///
/// Words are separated by blanks; double quotes group words (with `\"` and `\\` inside),
/// single quotes group them literally, and a backslash outside quotes takes the next
/// character as it is. An unquoted `~` or `~/` at the start of a word is the home
/// folder, `$HOME` as shells take it. `;` outside quotes separates commands, except that
/// a command declared to take the rest of its line (`ask`) does. A flag the command
/// declares (`--photo FILE`) is one only as a whole unquoted word, either before the
/// other words or as the last two: `ask what does --photo do` is a question.
///
/// What a command takes is what its screen declares (`CommandHelp`): the parser is given
/// the declarations of the screen shown (with the app's and the session's).
enum CommandParser {

    /// What is wrong with a line that cannot be split.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// A word and whether any of it was quoted (a quoted word is never a flag).
    struct Word: Equatable {
        var text = ""
        var isQuoted = false
    }

    /// The commands on `line`, read as `declarations` say; empty commands are skipped.
    static func commands(in line: String, declarations: [CommandHelp], home: String = homeFolder()) -> Result<
        [Command], Problem
    > {
        var commands: [Command] = []
        let scanned = scan(line, declarations: declarations)
        if scanned.openQuote != nil { return .failure(Problem(message: "a quote is not closed")) }
        for words in scanned.commands {
            if let command = command(from: words.map { expandingHome($0.word, home: home) }, declarations: declarations)
            {
                commands.append(command)
            }
        }
        return .success(commands)
    }

    /// The first command of `line` (nil when it is empty) and the text after it, nil when
    /// nothing follows: a line's commands are read one at a time, each with the
    /// declarations of the screen shown when it runs (`open 2; ask ...` reads `ask` as
    /// the detail screen declares it). The line holds no open quote (`commands(in:)`).
    static func first(in line: String, declarations: [CommandHelp], home: String = homeFolder()) -> (
        command: Command?, rest: String?
    ) {
        let scanned = scan(line, declarations: declarations)
        let words = (scanned.commands.first ?? []).map { expandingHome($0.word, home: home) }
        let rest = scanned.separators.first.map { String(line.dropFirst($0 + 1)) }
        return (command(from: words, declarations: declarations), rest)
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
    private static func command(from words: [Word], declarations: [CommandHelp]) -> Command? {
        guard let first = words.first else { return nil }
        let name = first.text.lowercased()
        var rest = Array(words.dropFirst())
        var options: [String: String] = [:]
        let known = Set(declarations.declaration(of: name)?.flags.map(\.name) ?? [])
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
