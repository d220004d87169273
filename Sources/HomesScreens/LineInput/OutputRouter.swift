import LineEditing
import Synchronization

/// Where a session's output goes: straight to the terminal or, once a line editor shares
/// the terminal (`attach`), through its display, above the line being edited.
final class OutputRouter: Sendable {
    /// Writes to the terminal, one text at a time.
    let direct: @Sendable (String) -> Void
    private let display = Mutex<LineDisplay?>(nil)

    init(_ direct: @escaping @Sendable (String) -> Void) {
        self.direct = direct
    }

    /// From now on, output goes above the line `display` shows.
    func attach(_ display: LineDisplay) {
        self.display.withLock { $0 = display }
    }

    /// Writes `text`, above the line being edited if one is.
    func write(_ text: String) {
        if let display = display.withLock({ $0 }) { display.write(text) } else { direct(text) }
    }

    /// Clears the screen and writes `text` (whole rows) from its top, the line being edited
    /// drawn again below it.
    func writeScreen(_ text: String) {
        if let display = display.withLock({ $0 }) {
            display.write(text, clearingScreen: true)
        } else {
            direct("\u{1B}[H\u{1B}[2J" + text)
        }
    }
}
