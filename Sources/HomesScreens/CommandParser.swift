/// Splits a REPL line into commands and words.
enum CommandParser {
    /// The commands on `line`, each as its words; empty commands are skipped.
    static func commands(in line: String) -> [[String]] {
        var commands: [[String]] = []
        let words = { (text: Substring) in text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) }
        var rest = Substring(line)
        while !rest.isEmpty {
            let end = rest.firstIndex(of: ";") ?? rest.endIndex
            let part = words(rest[..<end])
            if part.first?.lowercased() == "ask" {
                commands.append(words(rest))
                break
            }
            if !part.isEmpty { commands.append(part) }
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        return commands
    }
}
