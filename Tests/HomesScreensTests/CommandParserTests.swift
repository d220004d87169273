import Foundation
import Testing

@testable import HomesScreens

@Suite struct CommandParserTests {
    /// What the screens of these tests declare: `ask` takes the rest of its line and a
    /// photo, as the detail screen declares it.
    static let declarations = [
        CommandHelp(
            usage: "ask TEXT [--photo FILE]", summary: "ask", flags: [CommandHelp.Flag("--photo", takesFile: true)],
            takesRestOfLine: true),
        CommandHelp(usage: "open N", summary: "open"),
    ]

    func commands(_ line: String, declarations: [CommandHelp] = Self.declarations) -> [Command] {
        (try? CommandParser.commands(in: line, declarations: declarations, home: "/home/mei").get()) ?? []
    }

    /// Tab completion takes `~` as the command that runs does: the folder `HOME` names.
    @Test func completingATildePathLooksInTheHomeFolderTheEnvironmentNames() throws {
        let home = NSTemporaryDirectory() + "homes-completion-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home + "/photos", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        #expect(Completer.paths(startingWith: "~/pho", home: home) == ["~/photos/"])
    }

    @Test func oneCommandIsItsWords() {
        #expect(commands("  filter\trooms   2 ") == [Command(name: "filter", arguments: ["rooms", "2"])])
        #expect(commands("") == [])
        #expect(commands("   \t ") == [])
    }

    @Test func semicolonsSeparateCommandsAndEmptyOnesAreSkipped() {
        #expect(
            commands("refresh; filter rooms 2") == [
                Command(name: "refresh"), Command(name: "filter", arguments: ["rooms", "2"]),
            ])
        #expect(commands(" ;; more ;") == [Command(name: "more")])
        #expect(commands(";") == [])
    }

    @Test func askKeepsTheRestOfItsLineSemicolonsIncluded() {
        #expect(
            commands("open 2; ask quiet? yes; near a school --photo a.jpg")
                == [
                    Command(name: "open", arguments: ["2"]),
                    Command(
                        name: "ask", arguments: ["quiet?", "yes;", "near", "a", "school"], options: ["--photo": "a.jpg"]
                    ),
                ])
        #expect(commands("ASK a;b") == [Command(name: "ask", arguments: ["a;b"])])
    }

    @Test func commandNamesIgnoreCase() {
        #expect(commands("LIST NEW") == [Command(name: "list", arguments: ["NEW"])])
    }

    @Test func quotesAndBackslashesGroupWords() {
        #expect(
            commands(#"ask "what about this" --photo "/tmp/my room.jpg""#)
                == [Command(name: "ask", arguments: ["what about this"], options: ["--photo": "/tmp/my room.jpg"])])
        #expect(
            commands(#"filter district 'Jing an'"#) == [Command(name: "filter", arguments: ["district", "Jing an"])])
        #expect(
            commands(#"ask a\ b "say \"hi\"" 'it''s'"#) == [
                Command(name: "ask", arguments: ["a b", #"say "hi""#, "its"])
            ])
        #expect(commands(#"go "a;b"; more"#) == [Command(name: "go", arguments: ["a;b"]), Command(name: "more")])
    }

    @Test func anOpenQuoteIsAProblem() {
        #expect(throws: CommandParser.Problem(message: "a quote is not closed")) {
            try CommandParser.commands(in: #"ask "unfinished"#, declarations: Self.declarations).get()
        }
    }

    @Test func aTildeIsTheHomeFolderOnlyUnquotedAtTheStartOfAWord() {
        #expect(
            commands("ask hi --photo ~/room.jpg")
                == [Command(name: "ask", arguments: ["hi"], options: ["--photo": "/home/mei/room.jpg"])])
        #expect(commands(#"ask "~/room" a~b"#) == [Command(name: "ask", arguments: ["~/room", "a~b"])])
    }

    /// `~` is `HOME` as shells take it, even when the account's home is elsewhere; an
    /// unset or empty `HOME` leaves the account's home.
    @Test func theHomeFolderIsHOMEOrTheAccountsHome() {
        #expect(CommandParser.homeFolder(environment: ["HOME": "/tmp/elsewhere"]) == "/tmp/elsewhere")
        #expect(CommandParser.homeFolder(environment: [:]) == NSHomeDirectory())
        #expect(CommandParser.homeFolder(environment: ["HOME": ""]) == NSHomeDirectory())
    }

    @Test func aFlagIsAFlagOnlyAsAWholeUnquotedWordBeforeOrAfterTheMessage() {
        #expect(
            commands("ask --photo a.jpg is it quiet")
                == [Command(name: "ask", arguments: ["is", "it", "quiet"], options: ["--photo": "a.jpg"])])
        #expect(
            commands("ask what does --photo do here") == [
                Command(name: "ask", arguments: ["what", "does", "--photo", "do", "here"])
            ])
        #expect(
            commands(#"ask tell me "--photo" x"#) == [Command(name: "ask", arguments: ["tell", "me", "--photo", "x"])])
        #expect(commands("ask hello --photo") == [Command(name: "ask", arguments: ["hello"], options: ["--photo": ""])])
        #expect(commands("open --photo 2") == [Command(name: "open", arguments: ["--photo", "2"])])
    }

    /// Where each word stands, for the line editor's colours (`HighlightTests`, in AppTests).
    @Test func theParserSaysWhereEachWordStands() {
        // `ask` takes the rest of its line, `;` included.
        let scan = CommandParser.scan(#"open 2; ask "a b" c\ d; more"#, declarations: Self.declarations)
        #expect(scan.commands.map { $0.map(\.range) } == [[0..<4, 5..<6], [8..<11, 12..<17, 18..<23, 24..<28]])
        #expect(scan.commands[1].map(\.word.text) == ["ask", "a b", "c d;", "more"])
        #expect(scan.separators == [6])
        #expect(CommandParser.scan("more;; x", declarations: []).commands.map(\.count) == [1, 0, 1])
        #expect(scan.openQuote == nil)
        #expect(CommandParser.scan(#"ask "why"#, declarations: []).openQuote == 4)
        #expect(CommandParser.scan(#"ask "why" 'no"#, declarations: []).openQuote == 10)
    }

    /// Flags and the rest of the line are what the command's screen declares: where no
    /// screen declares them, `--photo` is a word and `;` ends `ask` like any command.
    @Test func aCommandTakesOnlyWhatItsScreenDeclares() {
        #expect(
            commands("ask a; b --photo x.jpg", declarations: []) == [
                Command(name: "ask", arguments: ["a"]), Command(name: "b", arguments: ["--photo", "x.jpg"]),
            ])
        let own = [CommandHelp(usage: "send TEXT [--to WHO]", summary: "", flags: [CommandHelp.Flag("--to")])]
        #expect(
            commands("send --to mei hi; ask x --photo y", declarations: own) == [
                Command(name: "send", arguments: ["hi"], options: ["--to": "mei"]),
                Command(name: "ask", arguments: ["x", "--photo", "y"]),
            ])
    }

    /// A line is read one command at a time, each as the screen shown when it runs
    /// declares it: the first command, then the text after its `;`.
    @Test func theFirstCommandAndTheRestOfTheLine() {
        let first = CommandParser.first(in: "open 2; ask a; b --photo x", declarations: [], home: "/home/mei")
        #expect(first.command == Command(name: "open", arguments: ["2"]))
        #expect(first.rest == " ask a; b --photo x")
        let asked = CommandParser.first(in: first.rest ?? "", declarations: Self.declarations, home: "/home/mei")
        #expect(asked.command == Command(name: "ask", arguments: ["a;", "b"], options: ["--photo": "x"]))
        #expect(asked.rest == nil)
        #expect(CommandParser.first(in: ";; more", declarations: [], home: "/").command == nil)
    }

    /// Tab offers a command's declared flags among its words, and paths after one whose
    /// value is a file.
    @MainActor @Test func tabOffersTheDeclaredFlags() {
        let completer = Completer(help: Self.declarations, screen: nil)
        #expect(completer.complete("ask hi --p") == ["--photo"])
        #expect(completer.complete("open --p") == [])
    }
}
