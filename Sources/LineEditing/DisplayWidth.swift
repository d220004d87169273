/// The columns text takes on a terminal: East Asian wide and fullwidth characters and
/// emoji take two, combining marks, joiners and other format characters none, the rest one.
public enum DisplayWidth {
    /// The columns `text` takes.
    public static func of(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// The columns one character (a grapheme, perhaps of several scalars) takes.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if isZeroWidth(first) { return 0 }
        // An emoji shown as a picture: by default, by a variation selector, as a flag or keycap.
        if first.properties.isEmojiPresentation
            || scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x20E3 })
        {
            return 2
        }
        return isWide(first.value) ? 2 : 1
    }

    /// Controls, combining marks, format characters (zero width space and joiners, bidi
    /// marks) and Hangul medial and final jamo take no column of their own.
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .nonspacingMark, .enclosingMark:
            return true
        case .format:
            return scalar.value != 0x00AD // a soft hyphen is shown
        default:
            return (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value)
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges after Unicode's EastAsianWidth.txt (a few
    /// neighbouring ranges merged), sorted for a binary search.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, // Hangul Jamo initial consonants
        0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693,
        0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE,
        0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA,
        0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C,
        0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0,
        0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, // CJK radicals, Kangxi, ideographic description, CJK symbols
        0x3041...0x33FF, // Hiragana, Katakana, Bopomofo, Hangul compatibility jamo, CJK compatibility
        0x3400...0x4DBF, // CJK extension A
        0x4E00...0x9FFF, // CJK unified ideographs
        0xA000...0xA4CF, // Yi
        0xA960...0xA97F, // Hangul Jamo extended A
        0xAC00...0xD7A3, // Hangul syllables
        0xF900...0xFAFF, // CJK compatibility ideographs
        0xFE10...0xFE19, // vertical forms
        0xFE30...0xFE6F, // CJK compatibility forms, small form variants
        0xFF00...0xFF60, // fullwidth forms
        0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1AFF0...0x1B2FF, // Tangut, Khitan, Kana supplements
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F2FF, // enclosed ideographic supplement
        0x1F300...0x1F64F, // pictographs and emoticons
        0x1F680...0x1F6FF, // transport and map symbols
        0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x2FFFD, // CJK extensions B to F, compatibility supplement
        0x30000...0x3FFFD, // CJK extensions G and H
    ]

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
