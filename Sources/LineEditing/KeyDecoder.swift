/// One key press (or one paste), as the terminal reported it.
///
/// Control keys keep their letter (`.control("a")` for Ctrl-A); the keys terminals send as
/// control bytes of their own (Enter, Tab, Backspace, Escape) have cases of their own.
public enum Key: Hashable, Sendable {
    /// A character to insert.
    case character(Character)
    /// Text pasted while the terminal brackets pastes, with line breaks turned into spaces.
    case paste(String)
    /// Enter or Return (CR, LF or CR LF).
    case enter
    /// Tab (Ctrl-I).
    case tab
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// Delete, the key that deletes under the cursor (`ESC [3~`).
    case delete
    /// Escape on its own (reported once no sequence follows it).
    case escape
    /// The arrow keys.
    case left, right, up, down
    /// Home and End, in all the forms terminals send them.
    case home, end
    /// Ctrl-Left or Alt-Left: one word back.
    case wordLeft
    /// Ctrl-Right or Alt-Right: one word forward.
    case wordRight
    /// A control key, by its lowercase letter: `.control("a")` is Ctrl-A.
    case control(Character)
    /// Alt (Meta) with a printable ASCII character, sent as ESC then the character.
    case alt(Character)
    /// Alt-Backspace.
    case altBackspace
}

/// Turns the bytes a terminal sends into keys.
///
/// Bytes may arrive in any pieces: a UTF-8 character or an escape sequence split across
/// reads is completed by the next `decode(_:)`. Escape sequences it does not know (CSI
/// `ESC [` parameters and a final byte, SS3 `ESC O x`) are swallowed whole, never typed.
/// A lone ESC stays pending until more bytes come or `flush()` says none will soon.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var pasted: [UInt8]?
    private var afterCarriageReturn = false

    /// The longest escape sequence waited for; longer ones are dropped as noise.
    private static let longestSequence = 32

    /// A decoder with nothing pending.
    public init() {}

    /// True while the bytes so far begin an escape sequence (or a lone ESC): the caller
    /// should wait briefly for more bytes, and call `flush()` if none come.
    public var isWaitingForEscapeSequence: Bool {
        pasted == nil && pending.first == 0x1B
    }

    /// The keys `bytes` complete, in order.
    public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        while step(into: &keys) {}
        return keys
    }

    /// Ends whatever is pending because no more bytes came: a lone ESC is the Escape key,
    /// an unfinished sequence or character is dropped, an unfinished paste is delivered.
    public mutating func flush() -> [Key] {
        if let pasted {
            self.pasted = nil
            defer { pending = [] }
            return [.paste(Self.pasteText(pasted + pending))]
        }
        defer { pending = [] }
        return pending == [0x1B] ? [.escape] : []
    }

    // MARK: - Decoding

    /// Decodes what comes first in `pending` into `keys`; false when more bytes are needed
    /// (or none are left).
    private mutating func step(into keys: inout [Key]) -> Bool {
        if pasted != nil { return pastedStep(into: &keys) }
        guard let first = pending.first else { return false }
        let wasCarriageReturn = afterCarriageReturn
        afterCarriageReturn = false
        var key: Key?
        var length = 1
        switch first {
        case 0x0D:
            afterCarriageReturn = true
            key = .enter
        case 0x0A: key = wasCarriageReturn ? nil : .enter
        case 0x7F, 0x08: key = .backspace
        case 0x09: key = .tab
        case 0x01...0x1A: key = .control(Character(Unicode.Scalar(first + 0x60)))
        case 0x00, 0x1C...0x1F: key = nil
        case 0x1B:
            guard let (escaped, count) = escapeSequence() else { return false }
            key = escaped
            length = count
        default:
            return text(into: &keys)
        }
        pending.removeFirst(length)
        if let key { keys.append(key) }
        return true
    }

    /// ESC and what follows it (CSI, SS3, Alt with a character, or a lone Escape) as the key
    /// it means (nil for none) and its length; nil while it is unfinished.
    private mutating func escapeSequence() -> (Key?, Int)? {
        guard pending.count >= 2 else { return nil }
        switch pending[1] {
        case UInt8(ascii: "["): return controlSequence()
        case UInt8(ascii: "O"):
            guard pending.count >= 3 else { return nil }
            let key: Key? =
                switch pending[2] {
                case UInt8(ascii: "A"): .up
                case UInt8(ascii: "B"): .down
                case UInt8(ascii: "C"): .right
                case UInt8(ascii: "D"): .left
                case UInt8(ascii: "H"): .home
                case UInt8(ascii: "F"): .end
                case UInt8(ascii: "M"): .enter // keypad Enter
                default: nil // F1–F4 and the rest of the keypad
                }
            return (key, 3)
        case 0x7F, 0x08: return (.altBackspace, 2)
        case 0x20...0x7E: return (.alt(Character(Unicode.Scalar(pending[1]))), 2)
        default:
            // ESC before another control or a non-ASCII byte: Escape, then that key.
            return (.escape, 1)
        }
    }

    /// `ESC [`, parameters (0x30–0x3F), intermediates (0x20–0x2F), then a final byte (0x40–0x7E).
    private mutating func controlSequence() -> (Key?, Int)? {
        // The Linux console's F1–F5 are `ESC [ [ A` to `ESC [ [ E`.
        if pending.count >= 3 && pending[2] == UInt8(ascii: "[") {
            return pending.count >= 4 ? (nil, 4) : nil
        }
        var index = 2
        while index < pending.count {
            let byte = pending[index]
            if (0x40...0x7E).contains(byte) { break }
            // Not part of a sequence: drop what came before and decode the byte afresh.
            guard (0x20...0x3F).contains(byte) else { return (nil, index) }
            index += 1
        }
        guard index < pending.count else {
            return pending.count > Self.longestSequence ? (nil, pending.count) : nil
        }
        let parameters = String(decoding: pending[2..<index], as: UTF8.self)
        if parameters == "200" && pending[index] == UInt8(ascii: "~") {
            pasted = []
            return (nil, index + 1)
        }
        return (Self.controlKey(parameters: parameters, final: pending[index]), index + 1)
    }

    private static func controlKey(parameters: String, final: UInt8) -> Key? {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false)
        let modifier = fields.count > 1 ? Int(fields[1]) ?? 1 : 1
        // Modifiers: 1 plus 1 for Shift, 2 for Alt, 4 for Ctrl; with Alt or Ctrl, arrows go by word.
        let byWord = modifier >= 3
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return byWord ? .wordRight : .right
        case UInt8(ascii: "D"): return byWord ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch fields.first.flatMap({ Int($0) }) {
            case 1, 7: return .home
            case 4, 8: return .end
            case 3: return .delete
            default: return nil
            }
        default: return nil
        }
    }

    /// A run of UTF-8 text up to the next control byte or unfinished character, as one key
    /// per character; false when it is all unfinished.
    private mutating func text(into keys: inout [Key]) -> Bool {
        var end = 0
        while end < pending.count, pending[end] >= 0x20, pending[end] != 0x7F {
            let length =
                switch pending[end] {
                case 0x00..<0x80: 1
                case 0xC2..<0xE0: 2
                case 0xE0..<0xF0: 3
                case 0xF0..<0xF5: 4
                default: 0
                }
            let available = pending[(end + 1)..<min(end + max(length, 1), pending.count)]
            let continues = available.allSatisfy { $0 & 0xC0 == 0x80 }
            if length > 0 && continues && end + length > pending.count {
                break // unfinished: wait for the rest
            }
            guard length > 0 && continues else {
                // Not UTF-8: drop the byte (after the text before it).
                if end == 0 {
                    pending.removeFirst()
                    return true
                }
                break
            }
            end += length
        }
        guard end > 0 else { return false }
        let text = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end)
        // C1 controls (U+0080–U+009F) are never typed.
        for character in text where !Self.isControl(character) {
            keys.append(.character(character))
        }
        return true
    }

    /// The bytes of a bracketed paste, up to `ESC [201~`.
    private mutating func pastedStep(into keys: inout [Key]) -> Bool {
        let end: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]
        var bytes = pasted ?? []
        bytes.append(contentsOf: pending)
        pending = []
        guard let range = bytes.firstRange(of: end) else {
            pasted = bytes
            return false
        }
        pasted = nil
        pending = Array(bytes[range.upperBound...])
        keys.append(.paste(Self.pasteText(Array(bytes[..<range.lowerBound]))))
        return true
    }

    /// Pasted bytes as text to insert: line breaks and tabs become spaces, other controls go.
    private static func pasteText(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text.lazy.map { $0.isNewline || $0 == "\t" ? " " : $0 }.filter { !isControl($0) })
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control }
    }
}
