/// The candidates a second Tab lists, as bash lists them: in columns across the terminal,
/// each path by its last component; more than `queryThreshold` of them, or more rows than
/// the terminal has, are asked about first ("Display all 120 possibilities? (y or n)"),
/// then shown a screenful at a time under `--More--` (Space: the next screenful, Enter:
/// one more row, q or n: enough).
struct CompletionListing {
    /// The most candidates listed without asking, as readline's `completion-query-items`.
    static let queryThreshold = 100
    static let more = "--More--"

    private let count: Int
    private let rows: [String]
    private var next = 0
    private var asking = false

    /// A listing of `candidates` across `width` columns.
    init(_ candidates: [String], width: Int) {
        count = candidates.count
        rows = Self.rows(of: candidates, width: width)
    }

    /// Writes the list, or the question about it; true when the list is done (all of it
    /// shown), false when keys are wanted (`answer`).
    mutating func start(height: Int, write: (String) -> Void) -> Bool {
        guard count > Self.queryThreshold || rows.count > max(1, height - 1) else {
            write(rows.map { $0 + "\r\n" }.joined())
            return true
        }
        asking = true
        write("Display all \(count) possibilities? (y or n)")
        return false
    }

    /// Takes a key while asking or paging; true when the listing is over (the line is
    /// then drawn again below it).
    mutating func answer(_ key: Key, height: Int, write: (String) -> Void) -> Bool {
        var character: Character?
        switch key {
        case .character(let typed): character = typed
        case .paste(let pasted): character = pasted.first
        case .enter: character = "\r"
        case .control("c"), .control("g"), .escape: character = "n"
        default: break
        }
        guard let character else { return false }
        if asking {
            switch character {
            case "y", "Y", " ":
                asking = false
                write("\r\n")
                return page(rows: max(1, height - 1), write: write)
            case "n", "N", "q", "Q":
                write("\r\n")
                return true
            default: return false
            }
        }
        switch character {
        case " ":
            write("\r\u{1B}[K")
            return page(rows: max(1, height - 1), write: write)
        case "\r":
            write("\r\u{1B}[K")
            return page(rows: 1, write: write)
        case "q", "Q", "n", "N":
            write("\r\u{1B}[K")
            return true
        default: return false
        }
    }

    /// Writes the next `rows` rows, then `--More--` if some are left; true when none are.
    private mutating func page(rows count: Int, write: (String) -> Void) -> Bool {
        let end = min(rows.count, next + count)
        write(rows[next..<end].map { $0 + "\r\n" }.joined())
        next = end
        guard next < rows.count else { return true }
        write(Self.more)
        return false
    }

    /// What a candidate is listed as: a path by its last component (a folder's with its
    /// `/`), anything else as it is.
    static func shown(_ candidate: String) -> String {
        let isFolder = candidate.hasSuffix("/") && candidate.count > 1
        let trimmed = isFolder ? String(candidate.dropLast()) : candidate
        guard let slash = trimmed.lastIndex(of: "/") else { return candidate }
        return String(trimmed[trimmed.index(after: slash)...]) + (isFolder ? "/" : "")
    }

    /// `candidates` (as `shown`) in columns across `width`, down then across as bash
    /// lists them, each row without its line break.
    static func rows(of candidates: [String], width: Int) -> [String] {
        let names = candidates.map(shown)
        guard !names.isEmpty else { return [] }
        let cell = (names.map { DisplayWidth.of($0) }.max() ?? 0) + 2
        let perRow = max(1, (width + 2) / cell)
        let rowCount = (names.count + perRow - 1) / perRow
        return (0..<rowCount).map { row in
            var line = ""
            var column = 0
            while row + column * rowCount < names.count {
                let name = names[row + column * rowCount]
                let last = row + (column + 1) * rowCount >= names.count
                line += last ? name : name + String(repeating: " ", count: cell - DisplayWidth.of(name))
                column += 1
            }
            return line
        }
    }
}
