extension CommandParser {
    /// A word of a line and the characters of the line it was read from.
    struct ScannedWord: Equatable {
        var word: Word
        /// Where it stands in the line, in characters (quotes and backslashes included).
        var range: Range<Int>
    }

    /// A line split into the words of its commands, as `commands(in:)` reads it, with
    /// where each word stands: what the line editor colours is what runs.
    struct Scan: Equatable {
        /// The words of each command, in order; a command may have none (`;;`).
        var commands: [[ScannedWord]] = []
        /// Where a quote that is not closed opens, if one does.
        var openQuote: Int?
        /// Where each `;` that ends a command stands.
        var separators: [Int] = []
    }

    /// Splits `line` into commands and words (`~` not yet expanded); a command that
    /// `declarations` say takes the rest of its line ends at the end of the line.
    static func scan(_ line: String, declarations: [CommandHelp]) -> Scan {
        var scan = Scan()
        var words: [ScannedWord] = []
        var word: ScannedWord?
        var characters = line.makeIterator()
        var quote: Character?
        var position = 0
        func next() -> Character? {
            defer { position += 1 }
            return characters.next()
        }
        func endWord() {
            if let finished = word { words.append(finished) }
            word = nil
        }
        func startWord(at start: Int) {
            if word == nil { word = ScannedWord(word: Word(), range: start..<start) }
        }
        while let character = next() {
            let start = position - 1
            defer {
                if let started = word?.range.lowerBound { word?.range = started..<position }
            }
            if let open = quote {
                if character == open {
                    quote = nil
                    scan.openQuote = nil
                } else if open == "\"", character == "\\", let escaped = next() {
                    word?.word.text.append(
                        escaped == "\"" || escaped == "\\" ? String(escaped) : "\\" + String(escaped))
                } else {
                    word?.word.text.append(character)
                }
                continue
            }
            switch character {
            case " ", "\t":
                endWord()
            case "\"", "'":
                quote = character
                scan.openQuote = start
                startWord(at: start)
                word?.word.isQuoted = true
            case "\\":
                startWord(at: start)
                word?.word.isQuoted = true
                if let escaped = next() { word?.word.text.append(escaped) }
            case ";" where !takesRestOfLine(words.first?.word ?? word?.word, declarations):
                endWord()
                scan.separators.append(start)
                scan.commands.append(words)
                words = []
            default:
                startWord(at: start)
                word?.word.text.append(character)
            }
        }
        endWord()
        scan.commands.append(words)
        return scan
    }

    /// Whether the command named by `name` (its first word) takes the rest of its line.
    private static func takesRestOfLine(_ name: Word?, _ declarations: [CommandHelp]) -> Bool {
        guard let name else { return false }
        return declarations.declaration(of: name.text.lowercased())?.takesRestOfLine ?? false
    }
}
