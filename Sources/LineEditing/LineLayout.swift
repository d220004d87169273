/// Where a prompt and a line fall on a terminal of a given width: the rows they take and
/// the row and column of the cursor, counted in display columns.
///
/// Rows are broken by the layout itself (the editor writes a line break between them), so
/// a wide character that does not fit at the end of a row moves whole to the next one.
/// When the cursor is at the end of a full row it sits at the start of one more, empty row.
/// Escape sequences in the prompt (colours) take no columns.
public struct LineLayout: Equatable, Sendable {
    /// The text of each row, the prompt included; never empty.
    public let rows: [String]
    /// The row the cursor is on, from 0.
    public let cursorRow: Int
    /// The column the cursor is at, from 0.
    public let cursorColumn: Int

    /// Lays out `prompt` then `text` on rows of `width` columns, with the cursor before
    /// `text[cursor]` (or after the text when `cursor == text.count`).
    public init(prompt: String, text: [Character], cursor: Int, width: Int) {
        let width = max(1, width)
        let promptPieces = Self.pieces(of: prompt)
        let pieces = promptPieces + text.map { (String($0), DisplayWidth.of($0)) }
        let cursorIndex = promptPieces.count + min(max(0, cursor), text.count)
        var rows: [String] = [""]
        var column = 0
        var cursorAt = (row: 0, column: 0)
        for (index, piece) in pieces.enumerated() {
            if column + piece.columns > width && column > 0 {
                rows.append("")
                column = 0
            }
            if index == cursorIndex { cursorAt = (rows.count - 1, column) }
            rows[rows.count - 1] += piece.text
            column += piece.columns
        }
        if cursorIndex == pieces.count {
            if column >= width {
                rows.append("")
                column = 0
            }
            cursorAt = (rows.count - 1, column)
        }
        self.rows = rows
        cursorRow = cursorAt.row
        cursorColumn = cursorAt.column
    }

    /// The prompt's characters with their columns; an escape sequence in it (a colour,
    /// `ESC [` to a final byte) is one piece of no column.
    static func pieces(of prompt: String) -> [(text: String, columns: Int)] {
        var pieces: [(text: String, columns: Int)] = []
        var characters = prompt[...]
        while let character = characters.popFirst() {
            guard character == "\u{1B}", characters.first == "[" else {
                pieces.append((String(character), DisplayWidth.of(character)))
                continue
            }
            var sequence = String(character)
            while let next = characters.popFirst() {
                sequence.append(next)
                if sequence.count > 2, let byte = next.asciiValue, (0x40...0x7E).contains(byte) { break }
            }
            pieces.append((sequence, 0))
        }
        return pieces
    }

    /// How many rows the prompt and line take.
    public var rowCount: Int { rows.count }
}
