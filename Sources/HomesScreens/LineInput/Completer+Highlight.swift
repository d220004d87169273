import LineEditing

extension Completer {
    /// How the line editor colours `line` for the screen shown, decided by the parser that
    /// runs it (`CommandParser.scan`): each command's name as one the screen or the app
    /// knows or not, a listing number the screen does not show (or a word where one is
    /// wanted, or a word too many) and an unclosed quote as problems.
    ///
    /// A command is known when it is among `commands` (the screen's, the app's and the
    /// session's, as `help` lists them); a command whose usage is `NAME N` takes one of the
    /// numbers Tab offers for it, as the screen's `handle` accepts.
    func highlight(_ line: String) -> [HighlightSpan] {
        let scan = CommandParser.scan(line, declarations: declarations)
        var spans: [HighlightSpan] = []
        for words in scan.commands {
            guard let name = words.first else { continue }
            let command = name.word.text.lowercased()
            spans.append(HighlightSpan(name.range, commands.contains(command) ? .command : .unknownCommand))
            guard let numbers = numbered[command] else { continue }
            for (index, argument) in words.dropFirst().enumerated()
            where index > 0 || !(Int(argument.word.text).map(numbers.contains) ?? false) {
                spans.append(HighlightSpan(argument.range, .problem))
            }
        }
        if let quote = scan.openQuote {
            // What the quote opens, to the end, is the problem: the rest is coloured as before.
            spans = spans.compactMap { span in
                let end = min(span.range.upperBound, quote)
                return span.range.lowerBound < end ? HighlightSpan(span.range.lowerBound..<end, span.style) : nil
            }
            spans.append(HighlightSpan(quote..<line.count, .problem))
        }
        return spans
    }
}
