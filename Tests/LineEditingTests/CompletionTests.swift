import LineEditing
import Testing

@Suite struct CompletionTests {
    static let commands = ["list", "login", "logout", "more", "map", "open", "fav", "favs", "filter"]

    /// Commands starting with the last word before the cursor, ignoring case.
    static func complete(_ before: String) -> [String] {
        let word = before.last == " " ? "" : before.split(separator: " ").last.map(String.init) ?? ""
        return commands.filter { $0.hasPrefix(word.lowercased()) }
    }

    func tab(_ buffer: inout LineBuffer) -> LineBuffer.Outcome {
        buffer.apply(.tab, complete: Self.complete)
    }

    @Test func oneCandidateCompletesWithASpace() {
        var buffer = LineBuffer(text: "li")
        #expect(tab(&buffer) == .editing)
        #expect(shown(buffer) == "list |")
    }

    @Test func candidatesReplaceTheWholeWord() {
        var buffer = LineBuffer(text: "LI")
        _ = tab(&buffer)
        #expect(shown(buffer) == "list |")
    }

    @Test func severalCandidatesGiveTheirCommonPrefixThenAList() {
        var buffer = LineBuffer(text: "lo")
        #expect(tab(&buffer) == .editing)
        #expect(shown(buffer) == "log|")
        #expect(tab(&buffer) == .listCompletions(["login", "logout"]))
        #expect(shown(buffer) == "log|")
        #expect(tab(&buffer) == .listCompletions(["login", "logout"]), "and again")
    }

    @Test func noLongerPrefixRingsTheBellAndTheSecondTabLists() {
        var buffer = LineBuffer(text: "fa")
        #expect(tab(&buffer) == .editing)
        #expect(shown(buffer) == "fav|")
        #expect(tab(&buffer) == .listCompletions(["fav", "favs"]))
        var l = LineBuffer(text: "l")
        #expect(tab(&l) == .bell)
        #expect(l.line == "l")
        #expect(tab(&l) == .listCompletions(["list", "login", "logout"]))
    }

    @Test func anotherKeyBetweenTabsStartsAgain() {
        var buffer = LineBuffer(text: "lo")
        _ = tab(&buffer)
        _ = buffer.apply(.character("g"))
        #expect(tab(&buffer) == .bell, "logg matches nothing: no list")
        _ = buffer.apply(.backspace)
        #expect(tab(&buffer) == .bell, "log: the prefix is there already")
        #expect(tab(&buffer) == .listCompletions(["login", "logout"]))
    }

    @Test func noCandidatesRingTheBell() {
        var buffer = LineBuffer(text: "xyz")
        #expect(tab(&buffer) == .bell)
        #expect(tab(&buffer) == .bell)
        #expect(buffer.line == "xyz")
    }

    @Test func completionGetsTheTextBeforeTheCursorAndKeepsWhatFollows() {
        var buffer = LineBuffer(text: "li rent")
        _ = buffer.apply(.wordLeft)
        _ = buffer.apply(.left)
        var asked: [String] = []
        _ = buffer.apply(.tab) { before in
            asked.append(before)
            return Self.complete(before)
        }
        #expect(asked == ["li"])
        #expect(shown(buffer) == "list |rent", "no second space before the next word")
    }

    @Test func completesTheWordAfterASpace() {
        var buffer = LineBuffer(text: "open ")
        _ = buffer.apply(.tab) { _ in ["3", "4"] }
        #expect(shown(buffer) == "open |")
        #expect(buffer.apply(.tab) { _ in ["3", "4"] } == .listCompletions(["3", "4"]))
        var one = LineBuffer(text: "open ")
        _ = one.apply(.tab) { _ in ["3", "3"] }
        #expect(shown(one) == "open 3 |", "repeated candidates are one")
    }
}
