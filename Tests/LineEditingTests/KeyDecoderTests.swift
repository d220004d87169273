import LineEditing
import Testing

@Suite struct KeyDecoderTests {
    /// The keys `bytes` decode to, in one read.
    func keys(_ bytes: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.decode(Array(bytes.utf8))
    }

    @Test func charactersAndControlBytes() {
        #expect(keys("ab") == [.character("a"), .character("b")])
        #expect(keys("\r") == [.enter])
        #expect(keys("\n") == [.enter])
        #expect(keys("\r\n") == [.enter], "CR LF is one Enter")
        #expect(keys("\r\r") == [.enter, .enter])
        #expect(keys("\u{7F}") == [.backspace])
        #expect(keys("\u{08}") == [.backspace])
        #expect(keys("\t") == [.tab])
        #expect(keys("\u{00}\u{1C}\u{1F}") == [], "bytes that are no key are dropped")
    }

    @Test(arguments: Array("abcdefgklnprtuwy"))
    func controlKeys(letter: Character) {
        let byte = letter.asciiValue! - 0x60
        var decoder = KeyDecoder()
        #expect(decoder.decode([byte]) == [.control(letter)])
    }

    @Test func arrowsHomeEndAndDelete() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
        let homes = ["\u{1B}[H", "\u{1B}[1~", "\u{1B}[7~", "\u{1B}OH"]
        let ends = ["\u{1B}[F", "\u{1B}[4~", "\u{1B}[8~", "\u{1B}OF"]
        for home in homes { #expect(keys(home) == [.home], "\(Array(home.utf8))") }
        for end in ends { #expect(keys(end) == [.end], "\(Array(end.utf8))") }
        #expect(keys("\u{1B}[3~") == [.delete])
    }

    @Test func wordMotionsAndAltKeys() {
        #expect(keys("\u{1B}[1;5D\u{1B}[1;5C") == [.wordLeft, .wordRight])
        #expect(keys("\u{1B}[1;3D\u{1B}[1;3C") == [.wordLeft, .wordRight], "Alt-arrows too")
        #expect(keys("\u{1B}[1;2D") == [.left], "Shift-Left is Left")
        #expect(keys("\u{1B}b\u{1B}f\u{1B}d\u{1B}y") == [.alt("b"), .alt("f"), .alt("d"), .alt("y")])
        #expect(keys("\u{1B}\u{7F}") == [.altBackspace])
        #expect(keys("\u{1B}\u{08}") == [.altBackspace])
    }

    @Test func unknownSequencesAreSwallowedWhole() {
        // F1 in its SS3 and CSI forms, F5, Page Up, Insert, a mouse report, F1 on the Linux console.
        for sequence in [
            "\u{1B}OP", "\u{1B}[11~", "\u{1B}[15~", "\u{1B}[5~", "\u{1B}[2~", "\u{1B}[<0;12;5M", "\u{1B}[[A",
        ] {
            #expect(keys(sequence + "x") == [.character("x")], "\(Array(sequence.utf8))")
        }
        #expect(keys("\u{1B}OP\r") == [.enter], "F1 then Enter gives just Enter")
        #expect(keys("\u{1B}[1;5P\r") == [.enter], "Ctrl-F1 too")
    }

    @Test func utf8CharactersAndGraphemes() {
        #expect(keys("静安😀") == [.character("静"), .character("安"), .character("😀")])
        #expect(keys("e\u{301}") == [.character("e\u{301}")], "a combining mark joins its letter")
        #expect(keys("👍🏽") == [.character("👍🏽")])
    }

    @Test func pieceSplitAcrossReadsIsCompleted() {
        var decoder = KeyDecoder()
        let bytes = Array("静".utf8)
        #expect(decoder.decode(bytes[0..<1]) == [])
        #expect(decoder.decode(bytes[1..<2]) == [])
        #expect(decoder.decode(bytes[2...] + [UInt8(ascii: "a")]) == [.character("静"), .character("a")])
        let emoji = Array("😀".utf8)
        #expect(decoder.decode(emoji[..<3]) == [])
        #expect(decoder.decode(emoji[3...]) == [.character("😀")])
        // An escape sequence split too.
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.isWaitingForEscapeSequence)
        #expect(decoder.decode(Array("[1;".utf8)) == [])
        #expect(decoder.decode(Array("5C".utf8)) == [.wordRight])
        #expect(!decoder.isWaitingForEscapeSequence)
    }

    @Test func invalidUTF8IsDroppedNotTyped() {
        #expect(keys("a\u{80}b") == [.character("a"), .character("b")], "a C1 control is not typed")
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x61, 0xFF, 0x62]) == [.character("a"), .character("b")])
        #expect(decoder.decode([0xE9, 0x61]) == [.character("a")], "a lead byte without its continuation")
        #expect(decoder.decode([0x80, 0x62]) == [.character("b")], "a stray continuation byte")
    }

    @Test func loneEscapeWaitsThenIsEscape() {
        var decoder = KeyDecoder()
        #expect(decoder.decode([0x1B]) == [])
        #expect(decoder.isWaitingForEscapeSequence)
        #expect(decoder.flush() == [.escape])
        #expect(decoder.decode(Array("x".utf8)) == [.character("x")])
        // An unfinished sequence is dropped on flush, not typed.
        #expect(decoder.decode(Array("\u{1B}[1".utf8)) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.decode(Array("y".utf8)) == [.character("y")])
        // Escape before a control key: both keys.
        #expect(keys("\u{1B}\r") == [.escape, .enter])
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
    }

    @Test func bracketedPasteIsOneKey() {
        #expect(keys("\u{1B}[200~list\r\nnew\tx\u{1B}[201~z") == [.paste("list new x"), .character("z")])
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("\u{1B}[200~ab".utf8)) == [])
        #expect(!decoder.isWaitingForEscapeSequence, "a paste is not an escape sequence to time out")
        #expect(decoder.decode(Array("c\u{1B}[20".utf8)) == [])
        #expect(decoder.decode(Array("1~".utf8)) == [.paste("abc")])
    }

    @Test func longGarbageSequenceIsDropped() {
        let garbage = "\u{1B}[" + String(repeating: "1;", count: 40)
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array(garbage.utf8)) == [])
        #expect(decoder.decode(Array("a".utf8)) == [.character("a")])
    }
}
