import LineEditing
import Testing

@Suite struct KillRingTests {
    @Test func controlKKillsToTheEndAndControlYYanksItBack() {
        var buffer = LineBuffer(text: "list rent now")
        press(.wordLeft, .left, on: &buffer)
        press(.control("k"), on: &buffer)
        #expect(shown(buffer) == "list rent|")
        press(.home, .control("y"), on: &buffer)
        #expect(shown(buffer) == " now|list rent")
    }

    @Test func controlUKillsToTheStart() {
        var buffer = LineBuffer(text: "list rent")
        press(.wordLeft, .control("u"), on: &buffer)
        #expect(shown(buffer) == "|rent")
        #expect(buffer.killRing.latest == "list ")
    }

    @Test func controlWKillsBackToTheSpace() {
        var buffer = LineBuffer(text: "open homes://listing/detail")
        press(.control("w"), on: &buffer)
        #expect(shown(buffer) == "open |")
        #expect(buffer.killRing.latest == "homes://listing/detail")
    }

    @Test func altBackspaceAndAltDKillWordsOfLettersAndDigits() {
        var buffer = LineBuffer(text: "open homes://listing/detail")
        press(.altBackspace, on: &buffer)
        #expect(shown(buffer) == "open homes://listing/|")
        press(.home, .alt("d"), on: &buffer)
        #expect(shown(buffer) == "| homes://listing/")
        press(.alt("d"), on: &buffer)
        #expect(shown(buffer) == "|://listing/")
        #expect(buffer.killRing.entries == ["detail", "open homes"], "Alt-D after Alt-D grows the same entry")
    }

    @Test func consecutiveBackwardKillsPrependAndYankRestoresTheOrder() {
        var buffer = LineBuffer(text: "one two three")
        press(.control("w"), .control("w"), on: &buffer)
        #expect(shown(buffer) == "one |")
        #expect(buffer.killRing.entries == ["two three"])
        press(.control("y"), on: &buffer)
        #expect(buffer.line == "one two three")
    }

    @Test func mixedDirectionsStillGrowOneEntry() {
        var buffer = LineBuffer(text: "abcdef")
        press(.left, .left, .left, .control("k"), .control("u"), on: &buffer)
        #expect(buffer.text.isEmpty)
        #expect(buffer.killRing.entries == ["abcdef"])
    }

    @Test func aKeyBetweenKillsStartsANewEntry() {
        var buffer = LineBuffer(text: "one two three")
        press(.control("w"), .left, .control("w"), on: &buffer)
        #expect(buffer.killRing.entries == ["three", "two"])
    }

    @Test func altYCyclesThroughOlderKills() {
        var buffer = LineBuffer(text: "alpha beta gamma")
        press(.control("w"), .left, .control("w"), .left, .control("w"), on: &buffer)
        #expect(buffer.killRing.entries == ["gamma", "beta", "alpha"])
        #expect(buffer.line == "  ")
        press(.control("e"), .control("y"), on: &buffer)
        #expect(buffer.line == "  alpha")
        press(.alt("y"), on: &buffer)
        #expect(buffer.line == "  beta")
        press(.alt("y"), on: &buffer)
        #expect(shown(buffer) == "  gamma|")
        press(.alt("y"), on: &buffer)
        #expect(buffer.line == "  alpha", "and round again")
        #expect(press(.left, .alt("y"), on: &buffer) == .bell, "only right after a yank")
    }

    @Test func yankWithNothingKilledRingsTheBell() {
        var buffer = LineBuffer()
        #expect(press(.control("y"), on: &buffer) == .bell)
    }

    @Test func theRingOutlivesTheLine() {
        var buffer = LineBuffer(text: "secret stays")
        press(.control("u"), on: &buffer)
        type("next", into: &buffer)
        #expect(buffer.apply(.enter) == .submitted("next"))
        press(.control("y"), on: &buffer)
        #expect(buffer.line == "secret stays")
    }

    @Test func emptyKillsAddNothingAndTheRingIsCapped() {
        var ring = KillRing(capacity: 2)
        ring.kill("", .forward, appending: false)
        #expect(ring.entries.isEmpty)
        ring.kill("a", .forward, appending: false)
        ring.kill("b", .forward, appending: false)
        ring.kill("c", .forward, appending: false)
        #expect(ring.entries == ["b", "c"])
        #expect(ring.entry(back: 1) == "b")
        #expect(ring.entry(back: 2) == "c")
    }
}
