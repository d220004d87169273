/// Text measured and shaped by the columns it takes on a terminal: CJK and emoji take two,
/// combining marks none, so tables line up in any script.
package enum DisplayText {
    /// The columns `text` takes.
    package static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The columns one character (grapheme) takes.
    package static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        switch first.properties.generalCategory {
        case .control, .format: return 0
        case .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        if scalars.contains(where: { $0.value == 0xFE0F || $0.properties.isEmojiPresentation }) { return 2 }
        return isWide(first.value) ? 2 : 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut.
    package static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard self.width(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = self.width(of: character)
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// `text` fitted to exactly `width` columns: cut if longer, padded if shorter.
    package static func fit(_ text: String, to width: Int, alignment: Alignment = .leading) -> String {
        let cut = truncate(text, to: width)
        let gap = max(0, width - self.width(cut))
        switch alignment {
        case .leading: return cut + String(repeating: " ", count: gap)
        case .trailing: return String(repeating: " ", count: gap) + cut
        }
    }

    /// `text` broken into lines of at most `width` columns, at spaces where possible.
    package static func wrap(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if self.width(candidate) <= width {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            var rest = word
            while self.width(rest) > width {
                var piece = ""
                var used = 0
                var remainder = Substring(rest)
                while let character = remainder.first, used + self.width(of: character) <= width {
                    piece.append(character)
                    used += self.width(of: character)
                    remainder = remainder.dropFirst()
                }
                if piece.isEmpty { break }
                lines.append(piece)
                rest = String(remainder)
            }
            line = rest
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Where padding goes.
    package enum Alignment: Sendable {
        case leading, trailing
    }
}
