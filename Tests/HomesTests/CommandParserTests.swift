@testable import HomesScreens
import Testing

@Suite struct CommandParserTests {
    @Test func oneCommandIsItsWords() {
        #expect(CommandParser.commands(in: "  filter\trooms   2 ") == [["filter", "rooms", "2"]])
        #expect(CommandParser.commands(in: "") == [])
        #expect(CommandParser.commands(in: "   \t ") == [])
    }

    @Test func semicolonsSeparateCommandsAndEmptyOnesAreSkipped() {
        #expect(CommandParser.commands(in: "refresh; filter rooms 2") == [["refresh"], ["filter", "rooms", "2"]])
        #expect(CommandParser.commands(in: " ;; more ;") == [["more"]])
        #expect(CommandParser.commands(in: ";") == [])
    }

    @Test func askKeepsTheRestOfItsLineSemicolonsIncluded() {
        #expect(CommandParser.commands(in: "open 2; ask quiet? yes; near a school --photo a.jpg")
                == [["open", "2"], ["ask", "quiet?", "yes;", "near", "a", "school", "--photo", "a.jpg"]])
        #expect(CommandParser.commands(in: "ASK a;b") == [["ASK", "a;b"]])
    }
}
