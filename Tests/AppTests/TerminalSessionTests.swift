import Foundation
import LineEditing
import Synchronization
import TerminalTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `homes` on a pseudo-terminal, as a person uses it: keys typed, the screen read back.
final class TerminalHomes: Sendable {
    let process = Process()
    private let master: Int32
    private let reading: FileHandle
    private let watched = WatchedOutput()
    /// The terminal's width now (a test may resize it).
    private let width: Mutex<Int>
    let stateFolder = NSTemporaryDirectory() + "homes-state-\(UUID().uuidString)"

    init(columns: Int = 80, arguments: [String] = [], colors: Bool = false, term: String = "xterm-256color") throws {
        width = Mutex(columns)
        var master: Int32 = -1
        var terminal: Int32 = -1
        var size = winsize(ws_row: 40, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &terminal, nil, nil, &size) == 0 else { throw CocoaError(.fileNoSuchFile) }
        self.master = master
        process.executableURL = TranscriptTests.homes
        process.arguments =
            [
                "--db", NSTemporaryDirectory() + "homes-tty-\(UUID().uuidString).sqlite",
                "--now", "1763700000",
            ] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = term
        environment["XDG_STATE_HOME"] = stateFolder
        environment["COLUMNS"] = nil
        environment["NO_COLOR"] = colors ? nil : "1"
        process.environment = environment
        let tty = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
        process.standardInput = tty
        process.standardOutput = tty
        process.standardError = tty
        reading = FileHandle(fileDescriptor: master, closeOnDealloc: false)
        watched.read(from: reading)
        try process.run()
    }

    /// Everything the app wrote to the terminal.
    var output: String { watched.text }

    /// What the app wrote as an asciinema (v2) recording of a terminal `columns` wide.
    func cast(columns: Int, rows: Int, title: String) -> String {
        func quoted(_ text: String) -> String {
            let data =
                (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data()
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }
        let header = #"{"version": 2, "width": \#(columns), "height": \#(rows), "title": \#(quoted(title))}"#
        return ([header] + watched.timed.map { "[\(String(format: "%.3f", $0.seconds)), \"o\", \(quoted($0.text))]" })
            .joined(separator: "\n") + "\n"
    }

    /// The screen a person would see now.
    var screen: ScreenEmulator {
        var screen = ScreenEmulator(columns: width.withLock { $0 }, height: 40)
        screen.feed(output)
        return screen
    }

    /// Makes the terminal `columns` wide and tells the app, as a terminal window does
    /// (the app is not in the terminal's foreground group here, so SIGWINCH is sent to it).
    func resize(columns: Int) {
        var size = winsize(ws_row: 40, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        width.withLock { $0 = columns }
        kill(process.processIdentifier, SIGWINCH)
    }

    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until the output holds `marker` `count` times (at most `seconds`).
    @discardableResult
    func waitFor(_ marker: String, count: Int = 1, seconds: Double = 20) -> Bool {
        waitUntil(seconds: seconds) { output, _ in output.components(separatedBy: marker).count - 1 >= count }
    }

    /// Waits until a row of the screen holds `text` (at most `seconds`): for what the editor
    /// draws in pieces, as it writes only what changed.
    @discardableResult
    func waitForScreen(_ text: String, seconds: Double = 20) -> Bool {
        waitUntil(seconds: seconds) { _, screen in screen.lines.contains { $0.contains(text) } }
    }

    /// Waits until `condition` holds for the output and the screen (at most `seconds`),
    /// looking again each time the app writes.
    func waitUntil(seconds: Double = 20, _ condition: (String, ScreenEmulator) -> Bool) -> Bool {
        let columns = width.withLock { $0 }
        return watched.waitUntil(seconds: seconds) { output in
            var screen = ScreenEmulator(columns: columns, height: 40)
            screen.feed(output)
            return condition(output, screen)
        }
    }

    /// Clears the line (Ctrl-E, Ctrl-U), types quit and waits for the app to leave; one
    /// that does not within 10 s is stopped, so a failing test never hangs.
    func quit() {
        type("\u{05}\u{15}quit\r")
        let process = self.process
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { if process.isRunning { process.terminate() } }
        process.waitUntilExit(killingAfter: 120)
        WatchedOutput.stopReading(reading)
    }
}

@Suite(.serialized) struct TerminalSessionTests {
    @Test func aLineLongerThanTheTerminalKeepsOnePromptLine() throws {
        let homes = try TerminalHomes()
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        let long = "ask " + String(repeating: "x", count: 296)
        for character in long { homes.type(String(character)) }
        // The prompt and the line, however many rows they take.
        func typed(_ screen: ScreenEmulator) -> String {
            guard let start = screen.lines.lastIndex(where: { $0.hasPrefix("homes> ") }) else { return "" }
            return screen.lines[start...].joined()
        }
        // 307 columns of prompt and text: four rows at 80 columns, all drawn.
        #expect(homes.waitUntil { _, screen in typed(screen).filter { $0 == "x" }.count == 296 })
        homes.type("\u{01}") // Ctrl-A: the cursor goes home over the rows
        #expect(homes.waitUntil { _, screen in screen.cursor.column == 7 })
        let screen = homes.screen
        #expect(screen.lines.filter { $0.hasPrefix("homes> ") }.count == 1)
        #expect(screen.lines.filter { $0.hasPrefix("homes> ask x") }.count == 1)
        #expect(typed(screen) == "homes> " + long)
        #expect(screen.lines.count - screen.lines.lastIndex(where: { $0.hasPrefix("homes> ") })! == 4)
        homes.quit()
    }

    @Test func tabCompletesCommandsAndTheirWords() throws {
        let homes = try TerminalHomes()
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.type("li\t")
        #expect(homes.waitForScreen("homes> list"))
        homes.type("ne\t")
        #expect(homes.waitForScreen("homes> list new"))
        homes.type("\r")
        #expect(homes.waitFor("New homes"))
        homes.quit()
    }

    /// A command that only prints a line (`logout`) but changes the screen shown (the
    /// account) draws the screen again after its line.
    @Test func aNoteThatChangesTheScreenShownRedrawsIt() throws {
        let homes = try TerminalHomes()
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.type("login mei homes2026\r")
        #expect(homes.waitFor("signed in as mei"))
        homes.type("account\r")
        #expect(homes.waitFor("Signed in as  mei"))
        homes.type("logout\r")
        #expect(homes.waitFor("signed out mei"))
        #expect(homes.waitFor("Signed in as  nobody"), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.quit()
    }

    /// A refused command says why under the line typed; the screen above, unchanged, is
    /// not drawn again. A command that changes it still redraws it.
    @Test func aRefusedCommandSaysWhyWithoutRedrawingTheScreen() throws {
        let homes = try TerminalHomes()
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.type("open 99\r")
        #expect(homes.waitFor("error: usage: open N, with N from 1 to 8"))
        homes.type("back\r")
        #expect(homes.waitFor("error: nothing to go back to"))
        #expect(homes.waitFor("homes> ", count: 3))
        let lines = homes.screen.lines
        let refused = try #require(lines.firstIndex { $0.hasPrefix("homes> open 99") })
        #expect(
            Array(lines[refused...].prefix(4)) == [
                "homes> open 99", "error: usage: open N, with N from 1 to 8", "homes> back",
                "error: nothing to go back to",
            ])
        #expect(homes.output.components(separatedBy: "Rentals").count - 1 == 1)
        homes.type("more\r")
        #expect(homes.waitFor("Rentals", count: 2))
        homes.quit()
    }

    @Test func ctrlRFindsAnEarlierCommand() throws {
        let homes = try TerminalHomes()
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.type("list resale\r")
        #expect(homes.waitFor("Resale"))
        homes.type("help\r")
        #expect(homes.waitFor("leave homes"))
        homes.type("\u{12}res")
        #expect(homes.waitForScreen("`res': list resale"))
        homes.type("\u{07}") // Ctrl-G: the match stays on the line, not run
        homes.quit()
        #expect(homes.process.terminationStatus == 0)
    }

    /// Ctrl-R ignores case unless the query has a capital (smart case).
    @Test func reverseSearchIsSmartCase() throws {
        let homes = try TerminalHomes()
        defer { try? FileManager.default.removeItem(atPath: homes.stateFolder) }
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.type("LIST resale\r")
        #expect(homes.waitFor("Resale"))
        homes.type("\u{12}list")
        #expect(homes.waitForScreen("`list': LIST resale"), "no capital: case ignored")
        homes.type("\u{7F}\u{7F}\u{7F}\u{7F}List")
        #expect(homes.waitForScreen("(failed reverse-i-search)`List'"), "a capital: case counts")
        homes.type("\u{07}")
        homes.quit()
    }

    /// While a command's work runs the prompt stays live under a status row: keys show as
    /// typed, and when the response draws the screen the half-typed line and its cursor
    /// come back exactly below it.
    @Test func aHalfTypedLineComesBackAfterTheResponseRedrawsTheScreen() throws {
        let homes = try TerminalHomes(arguments: ["--latency", "1500"])
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.type("list resale\r")
        homes.type("open 3 now\u{1B}b") // typed while the listings load; Alt-B: the cursor on "now"
        #expect(
            homes.waitUntil { _, screen in
                screen.lines.suffix(2).first?.contains("listings: working") == true
                    && screen.lines.last == "homes> open 3 now" && screen.cursor.column == 14
            }, "the app wrote: \(homes.output.suffix(600).debugDescription)")
        // The response draws the resale listings above the line, which comes back as it was.
        #expect(homes.waitForScreen("¥"))
        // Waited for as a whole: the screen may be drawn again as the view model settles
        // (a loaded machine can split its last changes), and the line comes back each time.
        #expect(
            homes.waitUntil { _, screen in
                screen.lines.last == "homes> open 3 now" && screen.cursor.column == 14
                    && !screen.lines.contains { $0.contains("working") }
                    && screen.lines.filter { $0.hasPrefix("homes> open") }.count == 1
                    && screen.cursor.row == screen.lines.count - 1
            }, "one copy of the line, the cursor on it; the app wrote: \(homes.output.suffix(600).debugDescription)")
        homes.type("X")
        #expect(homes.waitForScreen("homes> open 3 Xnow"))
        homes.quit()
    }

    /// Keys typed after a command that asks for a secret, even all in one go, are read by
    /// the secret prompt, never echoed by the live prompt.
    @Test func aSecretTypedAheadIsNeverEchoed() throws {
        let homes = try TerminalHomes(colors: true)
        defer { try? FileManager.default.removeItem(atPath: homes.stateFolder) }
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.type("login\r")
        #expect(homes.waitFor("Sign in"))
        homes.type("password\rsesame2026\r")
        #expect(homes.waitFor("Password  ••••••••••"))
        homes.quit()
        #expect(!homes.output.contains("sesame2026"))
    }

    @Test func aPasswordNeverReachesTheTerminalOrTheHistory() throws {
        let homes = try TerminalHomes()
        defer { try? FileManager.default.removeItem(atPath: homes.stateFolder) }
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        homes.type("login\r")
        #expect(homes.waitFor("Sign in"))
        homes.type("password\r")
        #expect(homes.waitFor("Password: "))
        homes.type("sesame2026\r")
        #expect(homes.waitFor("Password  ••••••••••"))
        homes.type("login mei homes2026\r")
        #expect(homes.waitFor("signed in as mei"))
        homes.quit()
        // Typed at the secret prompt: not one byte of it went to the terminal.
        #expect(!homes.output.contains("sesame2026"))
        // Typed on a command line: echoed while typed, then shown as ••• once entered.
        #expect(!homes.screen.lines.joined().contains("homes2026"))
        #expect(homes.screen.lines.contains { $0.hasPrefix("homes> login mei •••") })
        let history = (try? String(contentsOfFile: homes.stateFolder + "/homes/history", encoding: .utf8)) ?? ""
        #expect(!history.contains("sesame2026") && !history.contains("homes2026"))
    }

    /// Typing a long line costs what each key changes: the bytes written grow with the
    /// line, not with its square (the whole line drawn again after each read).
    @Test func aLongLineIsEchoedOnceNotOncePerRead() throws {
        let homes = try TerminalHomes()
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        let before = homes.output.utf8.count
        for chunk in 0..<30 { homes.type(String(repeating: Character(UnicodeScalar(97 + chunk % 26)!), count: 1_000)) }
        homes.type("END")
        #expect(homes.waitUntil(seconds: 20) { output, _ in output.hasSuffix("END") || output.contains("END\u{1B}") })
        let written = homes.output.utf8.count - before
        #expect(written < 2 * 30_003, "wrote \(written) bytes for a line of 30,003 characters")
        homes.quit()
        #expect(homes.process.terminationStatus == 0)
    }

    /// A paste of 15,000 characters into Ctrl-R over long history lines is one step of
    /// the search: the editor stays live, and Ctrl-C then a command work at once.
    @Test func aLongPasteIntoReverseSearchKeepsTheEditorLive() throws {
        let homes = try TerminalHomes()
        defer { try? FileManager.default.removeItem(atPath: homes.stateFolder) }
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        for letter in ["q", "r", "s"] {
            homes.type("\u{1B}[200~" + letter + String(repeating: "ab", count: 1_500) + "\u{1B}[201~\r")
            #expect(homes.waitFor("unknown command \(letter)ab"))
        }
        homes.type("\u{12}")
        #expect(homes.waitFor("(reverse-i-search)`'"))
        homes.type("\u{1B}[200~" + String(repeating: "ab", count: 7_500) + "\u{1B}[201~")
        #expect(homes.waitFor("(failed reverse-i-search)`abab"))
        homes.type("\u{03}help\r")
        // The search answered and the next command ran: the editor was not held up. (Not
        // timed: the waits' own deadlines bound a hang, and a stopwatch fails on a loaded
        // machine.)
        #expect(homes.waitFor("leave homes"))
        homes.quit()
    }

    /// SIGWINCH lays the screen and the line being edited out again at once, not at the
    /// next key: the table at the new width, the line wrapped at it, the cursor where it
    /// was in the line.
    @Test func aResizeMidLineLaysTheScreenAndTheLineOutAtOnce() throws {
        let homes = try TerminalHomes()
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        #expect(homes.waitFor("type more"))
        homes.type("ask about 日本語 and the rest")
        homes.type("\u{1B}b\u{1B}b") // Alt-B twice: the cursor on "the"
        #expect(homes.waitUntil { _, screen in screen.cursor.column == 28 })
        homes.resize(columns: 30)
        #expect(homes.waitFor("\u{1B}[2J"), "the screen was not laid out again")
        // 30 columns: the table narrower, the line on two rows, the cursor still on "the".
        #expect(
            homes.waitUntil { _, screen in
                screen.lines.contains { $0.hasPrefix("#  Name") } && screen.lines.last == "e rest"
                    && screen.cursor.column == 28
            }, "the app wrote: \(homes.output.suffix(600).debugDescription)")
        let screen = homes.screen
        let prompt = try #require(screen.lines.lastIndex { $0.hasPrefix("homes> ") })
        #expect(screen.lines.allSatisfy { DisplayWidth.of($0) <= 30 })
        #expect(screen.lines[prompt...] == ["homes> ask about 日本語 and th", "e rest"])
        #expect(screen.lines.filter { $0.hasPrefix("homes> ") }.count == 1, "no stale prompt row")
        #expect(
            screen.cursor.row == prompt && screen.cursor.column == 28,
            "\(screen.cursor) \(prompt) \(homes.output.suffix(200).debugDescription)")
        homes.type("X")
        #expect(homes.waitForScreen("and Xt"))
        homes.quit()
    }

    /// 120 photos: Tab asks before listing them, then lists them by name in columns, a
    /// screenful at a time under --More-- when they take more rows than the terminal has;
    /// the line comes back below the list. `--photo` is a flag of `ask`, on a listing's
    /// screen: paths are offered where the command that takes it is.
    @Test func aLongCompletionListIsAskedAboutPagedAndShownByName() throws {
        let folder = NSTemporaryDirectory() + "homes-photos-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for number in 1...120 {
            _ = FileManager.default.createFile(
                atPath: folder + "/room-\(String(1_000 + number).dropFirst()).jpg", contents: nil)
        }
        // 80 columns: 5 names a row, 24 rows on one screen; 30 columns: 2 a row, 60 rows.
        for columns in [80, 30] {
            let homes = try TerminalHomes(columns: columns)
            #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
            homes.type("open 1\r")
            #expect(homes.waitFor("fav to save it"))
            homes.type("ask --photo \(folder)/\t")
            // The common start of the names is put in (the line may take more than a row).
            #expect(homes.waitUntil { _, screen in screen.lines.joined().hasSuffix("/room-") })
            homes.type("\t")
            #expect(homes.waitFor("Display all 120 possibilities? (y or n)"))
            homes.type("y")
            if columns == 30 {
                #expect(homes.waitForScreen("--More--"))
                #expect(!homes.output.contains("room-120.jpg"), "the second page waits for Space")
                homes.type(" ")
            }
            #expect(homes.waitFor("room-120.jpg"))
            #expect(homes.waitUntil { _, screen in screen.lines.joined().hasSuffix(folder + "/room-") })
            let screen = homes.screen
            let firstRow = columns == 80 ? "room-001.jpg  room-025.jpg" : "room-031.jpg  room-091.jpg"
            #expect(screen.lines.contains { $0.hasPrefix(firstRow) }, "\(columns): \(screen.lines)")
            #expect(!homes.output.contains(folder + "/room-001"), "paths by their last component")
            homes.quit()
        }
    }

    /// On a colour terminal the command word is coloured as you type it, a number the list
    /// does not show is marked, and the rest of a line from the history is suggested dim.
    @Test func theLineIsColouredAndSuggestedAsYouType() throws {
        let homes = try TerminalHomes(colors: true)
        defer { try? FileManager.default.removeItem(atPath: homes.stateFolder) }
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        #expect(homes.waitFor("type more"))
        homes.type("lisst")
        #expect(homes.waitFor("\u{1B}[31mlisst"), "unknown: red")
        homes.type("\u{7F}\u{7F}t")
        #expect(homes.waitFor("\u{1B}[32mlist"), "known: green")
        homes.type(" new\r")
        #expect(homes.waitFor("New homes"))
        homes.type("open 99")
        #expect(homes.waitFor("\u{1B}[4;31m99"), "a listing the list does not show: marked")
        homes.type("\u{15}li")
        #expect(homes.waitFor("\u{1B}[2mst new"), "the rest of `list new`, dim")
        homes.type("\u{06}\r") // Ctrl-F takes it
        #expect(homes.waitFor("New homes", count: 2))
        homes.quit()
    }

    /// No suggestion at a secret prompt, nor on a terminal without colours (TERM=dumb).
    @Test func noSuggestionForSecretsNorUnderTermDumb() throws {
        for term in ["xterm-256color", "dumb"] {
            let homes = try TerminalHomes(colors: true, term: term)
            defer { try? FileManager.default.removeItem(atPath: homes.stateFolder) }
            #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
            homes.type("login\r")
            #expect(homes.waitFor("Sign in"))
            homes.type("password\r")
            #expect(homes.waitFor("Password: "))
            let before = homes.output.count
            homes.type("pas")
            homes.type("\u{03}") // Ctrl-C: the secret dropped
            #expect(homes.waitFor("homes> ", count: 3))
            let atTheSecret = String(homes.output.dropFirst(before))
            #expect(!atTheSecret.contains("pas"), "\(term): the secret echoed or suggested")
            homes.type("pa")
            #expect(homes.waitForScreen("homes> pa"))
            let shown = homes.waitUntil(seconds: 1) { output, _ in output.contains("\u{1B}[2mssword") }
            #expect(shown == (term != "dumb"), "\(term): the suggestion")
            homes.quit()
        }
    }

    /// The session the README shows: typing while a list loads (the status row above the
    /// live prompt, a number the list does not show marked), then a suggestion from the
    /// history. With HOMES_RECORD=folder set, it writes the recording (`session.cast`) and
    /// the two screens with their colours (`screens.txt`) there.
    @Test func theSessionTheReadmeShows() throws {
        let homes = try TerminalHomes(arguments: ["--latency", "1200"], colors: true)
        defer { try? FileManager.default.removeItem(atPath: homes.stateFolder) }
        #expect(homes.waitFor("homes> "), "the app wrote: \(homes.output.suffix(300).debugDescription)")
        #expect(homes.waitFor("type more"))
        // Recorded, keys come at a person's pace.
        let recording = ProcessInfo.processInfo.environment["HOMES_RECORD"]
        func type(_ text: String) {
            for character in text {
                homes.type(String(character))
                if recording != nil { Thread.sleep(forTimeInterval: 0.12) }
            }
        }
        type("list resale\r")
        type("open 9")
        #expect(
            homes.waitUntil { _, screen in
                screen.lines.last == "homes> open 9" && screen.lines.contains { $0.contains("working") }
            })
        let loading = homes.screen
        #expect(homes.waitForScreen("Resale"))
        #expect(
            homes.waitUntil { _, screen in
                screen.lines.last == "homes> open 9" && !screen.lines.contains { $0.contains("working") }
            })
        if recording != nil { Thread.sleep(forTimeInterval: 1) }
        type("\u{15}list r")
        // "lis" already shows "homes> list resale", with "t resale" suggested and "lis" not
        // yet a command: wait for the line as "list r" draws it.
        let listIsGreen = homes.waitUntil { _, screen in
            guard screen.lines.last == "homes> list resale", let last = screen.lines.indices.last else { return false }
            let row = screen.styles[last]
            return row[7..<11].allSatisfy { $0.foreground == 2 } && row[13..<18].allSatisfy(\.isDim)
        }
        #expect(listIsGreen, "list: green, esale: dim")
        let suggested = homes.screen
        let prompt = try #require(suggested.lines.indices.last)
        #expect(suggested.styles[prompt][7..<11].allSatisfy { $0.foreground == 2 }, "list: green")
        #expect(suggested.styles[prompt][13..<18].allSatisfy { $0.isDim }, "esale: dim")
        let marked = try #require(loading.lines.indices.last)
        #expect(loading.styles[marked][12].isUnderlined && loading.styles[marked][12].foreground == 1, "9: marked")
        if let folder = recording {
            Thread.sleep(forTimeInterval: 2)
            try homes.cast(columns: 80, rows: 40, title: "homes: typing while a list loads, then a suggestion")
                .write(toFile: folder + "/session.cast", atomically: true, encoding: .utf8)
            let screens = [loading, suggested].map { $0.styledLines.suffix(14).joined(separator: "\n") }
            try screens.joined(separator: "\n\n").write(
                toFile: folder + "/screens.txt", atomically: true, encoding: .utf8)
        }
        homes.quit()
    }
}
