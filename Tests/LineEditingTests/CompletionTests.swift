import Foundation
import TerminalTesting
import Testing

@testable import LineEditing

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

/// A second Tab lists the candidates as bash does: by their last component, in columns,
/// asking first when there are many, a screenful at a time.
@Suite struct CompletionListingTests {
    static let photos = (1...120).map { "/tmp/photos/room-\(String(1_000 + $0).dropFirst()).jpg" }

    @Test func manyCandidatesAreAskedAboutThenPagedByTheirLastComponent() throws {
        // 24 rows: 23 of the list a page. 120 names of 12 columns, 7 a row at 100: 18 rows.
        let steps = ["\t", "\t", "y", "x", "\r"]
        let session = try TypingSession(columns: 100, ["ask --photo /tmp/photos/"] + steps)
        var screens: [ScreenEmulator] = []
        session.onStep = { screens.append($0) }
        let editor = LineEditor(input: session.pty.terminal, columns: { 100 }) { session.write($0) }
        let photos = Self.photos
        let line = editor.readLine(prompt: "> ", complete: { _ in photos })
        #expect(line == "ask --photo /tmp/photos/room-x")
        let asked = try #require(screens.first { $0.lines.last == "Display all 120 possibilities? (y or n)" })
        #expect(
            asked.lines.suffix(2) == ["> ask --photo /tmp/photos/room-", "Display all 120 possibilities? (y or n)"])
        let listed = screens.last { $0.lines.contains { $0.hasPrefix("room-001.jpg") } }
        let rows = try #require(listed).lines
        #expect(
            rows.contains(
                "room-001.jpg  room-019.jpg  room-037.jpg  room-055.jpg  room-073.jpg  room-091.jpg  room-109.jpg"))
        #expect(!rows.joined().contains("/tmp/photos/room-0"), "paths by their last component")
        #expect(session.screen.lines.last == "> ask --photo /tmp/photos/room-x")
    }

    @Test func aListLongerThanTheTerminalIsPagedUnderMore() throws {
        // 10 rows: 9 a page; 90 names, 4 a row at 40 columns: 23 rows, 3 pages.
        let pty = try PseudoTerminal(columns: 40, rows: 10)
        let names = (1...90).map { "name-\(String(100 + $0).dropFirst())" }
        var screen = ScreenEmulator(columns: 40, height: 10)
        var writes: [String] = []
        let keys = ["\t", "\t", "y", " ", "q", "\r"]
        var typed = 0
        let editor = LineEditor(input: pty.terminal, columns: { 40 }) { text in
            writes.append(text)
            screen.feed(text)
            guard pty.unread == 0, typed < keys.count else { return }
            pty.type(keys[typed])
            typed += 1
        }
        #expect(editor.readLine(prompt: "> ", complete: { _ in names }) == "name-")
        let output = writes.joined()
        #expect(output.contains("name-01"))
        #expect(output.components(separatedBy: CompletionListing.more).count - 1 == 2, "two pages, then q")
        #expect(!output.contains("name-19"), "the third page is never shown")
        #expect(screen.lines.last == "> name-")
    }
}
