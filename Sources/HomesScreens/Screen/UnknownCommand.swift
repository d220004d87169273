/// What the session says of a command nothing answered: where it works when a screen
/// behind the one shown declares it (`more` on the map), else the command of this screen
/// it nearly spells (`lsit`), else how to list this screen's commands.
enum UnknownCommand {
    /// The error line for `name`, given the commands `known` on the screen shown (its own,
    /// the app's and the session's, in the order `help` lists them) and the screens
    /// `behind` it, the nearest first, each with what it declares and the commands of
    /// `shared` offered on it.
    @MainActor
    static func message(
        for name: String, known: [CommandHelp], behind: [any Screen], shared: (any SharedCommands)? = nil
    ) -> String {
        let names = known.flatMap(\.names)
        if !names.contains(name),
            let index = behind.firstIndex(where: { $0.declarations(with: shared).declaration(of: name) != nil })
        {
            let back = index == 0 ? "type back first" : "type back \(index + 1) times first"
            return "\(name) works on the \(behind[index].name) screen; \(back)"
        }
        if let near = nearest(to: name, in: names) { return "unknown command \(name); did you mean \(near)?" }
        return "unknown command \(name); type help for the commands of this screen"
    }

    /// The first of `names` at the smallest edit distance from `typed`, if one is near: one
    /// edit for a word of up to four characters, two for a longer one (`ask` is not a typo
    /// of `back`, nor `xy` of `go`). An exact match is no suggestion.
    static func nearest(to typed: String, in names: [String]) -> String? {
        let typed = Array(typed)
        let allowed = typed.count <= 4 ? 1 : 2
        var best: (name: String, distance: Int)?
        for name in names {
            let candidate = Array(name)
            // The distance is at least the difference in length: long words are skipped.
            guard abs(candidate.count - typed.count) <= allowed else { continue }
            let distance = editDistance(typed, candidate)
            if distance > 0, distance <= allowed, distance < (best?.distance ?? .max) {
                best = (name, distance)
            }
        }
        return best?.name
    }

    /// The Damerau-Levenshtein distance (optimal string alignment) between `a` and `b`:
    /// insertions, deletions, substitutions and swaps of two neighbours, one edit each.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows of the table: two back (for a swap), the last, and this one.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], twoBack[j - 2] + 1)
                }
            }
            (twoBack, last, row) = (last, row, twoBack)
        }
        return last[b.count]
    }
}
