import LineEditing

/// A tiny VT100 screen: interprets what the line editor writes (printable text with
/// auto-wrap, CR, LF, BS, BEL, cursor up/down/forward/back/column/position, erase in line
/// and in display, the colours and attributes of SGR kept per cell, private modes
/// ignored), so tests look at the screen a user would see rather than at escape sequences.
///
/// ```swift
/// var screen = ScreenEmulator(columns: 80)
/// screen.feed(output)
/// #expect(screen.lines.filter { $0.hasPrefix("homes> ") }.count == 1)
/// ```
package struct ScreenEmulator: Sendable {
    /// The screen's width in columns.
    package let columns: Int
    /// The screen's height in rows.
    package let height: Int
    /// Each cell holds its character, or "" when a wide character to its left covers it.
    package private(set) var cells: [[String]]
    /// The cursor's row.
    package private(set) var row = 0
    /// The cursor's column; `columns` means "past the last column, wrapping at the next character".
    package private(set) var column = 0
    /// Sequences it did not know, to fail on.
    package private(set) var unknown: [String] = []
    /// How each cell is shown.
    package private(set) var styles: [[Style]]
    /// How the next character written is shown.
    package private(set) var style = Style()

    /// How a cell is shown: the attributes and foreground colour SGR set.
    package struct Style: Equatable, Sendable {
        /// The foreground colour (30-37 as 0-7), nil for the default.
        package var foreground: Int?
        /// Bold (SGR 1).
        package var isBold = false
        /// Dim (SGR 2): how the line editor shows a suggestion.
        package var isDim = false
        /// Underlined (SGR 4).
        package var isUnderlined = false
        /// Reversed (SGR 7): how the line editor shows a search's match.
        package var isReversed = false

        /// The default style.
        package init() {}

        /// One letter for the style in `styledLines`: G green, R red, U red and
        /// underlined, D dim, V reversed, S any other; a space for the default.
        package var letter: Character {
            if self == Style() { return " " }
            if isReversed { return "V" }
            if isDim && foreground == nil { return "D" }
            if foreground == 1 { return isUnderlined ? "U" : "R" }
            if foreground == 2 { return "G" }
            return "S"
        }
    }

    /// An empty screen of `columns` by `height`, the cursor at the top left.
    package init(columns: Int = 80, height: Int = 24) {
        self.columns = columns
        self.height = height
        cells = Array(repeating: Array(repeating: " ", count: columns), count: height)
        styles = Array(repeating: Array(repeating: Style(), count: columns), count: height)
    }

    /// The rows as `lines` has them, each followed (when any of it is styled) by a row of
    /// `Style.letter`s under its cells: a screenshot with its colours written out.
    package var styledLines: [String] {
        var result: [String] = []
        for (row, line) in lines.enumerated() {
            result.append(line)
            let letters = String(styles[row].map(\.letter))
            let trimmed = String(letters.reversed().drop { $0 == " " }.reversed())
            if !trimmed.isEmpty { result.append(trimmed) }
        }
        return result
    }

    /// The rows on the screen, trailing spaces and trailing empty rows removed.
    package var lines: [String] {
        var lines = cells.map { cellsOfRow in
            String(cellsOfRow.joined().reversed().drop { $0 == " " }.reversed())
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The cursor as the terminal shows it.
    package var cursor: (row: Int, column: Int) { (row, min(column, columns - 1)) }

    /// Interprets `output` as a terminal would.
    package mutating func feed(_ output: String) {
        var characters = Array(output)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r": column = 0
            case "\n": lineFeed()
            case "\r\n":
                column = 0
                lineFeed()
            case "\u{07}": break
            case "\u{08}": column = max(0, min(column, columns - 1) - 1)
            case "\u{1B}":
                guard characters.popFirst() == "[" else {
                    unknown.append("ESC without [")
                    continue
                }
                var parameters = ""
                while let next = characters.first, next.isASCII, !(("@"..."~").contains(next)) {
                    parameters.append(next)
                    characters.removeFirst()
                }
                guard let final = characters.popFirst() else {
                    unknown.append("unfinished ESC [\(parameters)")
                    return
                }
                control(parameters, final)
            default: put(character)
            }
        }
    }

    private mutating func lineFeed() {
        if row == height - 1 {
            cells.removeFirst()
            cells.append(Array(repeating: " ", count: columns))
            styles.removeFirst()
            styles.append(Array(repeating: Style(), count: columns))
        } else {
            row += 1
        }
    }

    private mutating func put(_ character: Character) {
        let width = DisplayWidth.of(character)
        if width == 0 {
            let previous = max(0, min(column, columns) - 1)
            cells[row][previous] += String(character)
            return
        }
        if column + width > columns {
            column = 0
            lineFeed()
        }
        cells[row][column] = String(character)
        styles[row][column] = style
        if width == 2 && column + 1 < columns {
            cells[row][column + 1] = ""
            styles[row][column + 1] = style
        }
        column += width
    }

    private mutating func control(_ parameters: String, _ final: Character) {
        if parameters.hasPrefix("?") { return }
        if final == "m" { return select(parameters) }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let count = max(1, numbers.first.flatMap { $0 } ?? 1)
        let shown = min(column, columns - 1)
        switch final {
        case "A": (row, column) = (max(0, row - count), shown)
        case "B": (row, column) = (min(height - 1, row + count), shown)
        case "C": column = min(columns - 1, shown + count)
        case "D": column = max(0, shown - count)
        case "G": column = min(columns - 1, count - 1)
        case "H":
            row = min(height - 1, count - 1)
            column = min(columns - 1, max(1, numbers.count > 1 ? numbers[1] ?? 1 : 1) - 1)
        case "J":
            switch numbers.first.flatMap({ $0 }) ?? 0 {
            case 0:
                erase(row: row, from: shown, to: columns)
                for below in (row + 1)..<height { erase(row: below, from: 0, to: columns) }
            case 2: for any in 0..<height { erase(row: any, from: 0, to: columns) }
            default: unknown.append("ESC [\(parameters)J")
            }
        case "K":
            switch numbers.first.flatMap({ $0 }) ?? 0 {
            case 0: erase(row: row, from: shown, to: columns)
            case 1: erase(row: row, from: 0, to: shown + 1)
            case 2: erase(row: row, from: 0, to: columns)
            default: unknown.append("ESC [\(parameters)K")
            }
        default: unknown.append("ESC [\(parameters)\(final)")
        }
    }

    private mutating func erase(row: Int, from start: Int, to end: Int) {
        guard start < end else { return }
        for index in start..<end {
            cells[row][index] = " "
            styles[row][index] = Style()
        }
    }

    /// SGR: the attributes and foreground colours the line editor and the app use.
    private mutating func select(_ parameters: String) {
        for number in parameters.split(separator: ";", omittingEmptySubsequences: false).map({ Int($0) ?? 0 }) {
            switch number {
            case 0: style = Style()
            case 1: style.isBold = true
            case 2: style.isDim = true
            case 4: style.isUnderlined = true
            case 7: style.isReversed = true
            case 22: (style.isBold, style.isDim) = (false, false)
            case 24: style.isUnderlined = false
            case 27: style.isReversed = false
            case 30...37: style.foreground = number - 30
            case 39: style.foreground = nil
            case 40...49: break
            default: unknown.append("ESC [\(parameters)m")
            }
        }
    }
}
