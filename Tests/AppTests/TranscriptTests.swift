import Foundation
import Networking
import Persistence
import Testing

/// Scripted sessions piped into the built `homes` executable; the output must match the
/// expected transcript exactly (piped output is deterministic).
@Suite(.serialized) struct TranscriptTests {
    static var homes: URL? {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("homes") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static let transcripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Transcripts")

    /// Runs `homes` with `arguments` and `input`; its state (the route patch) goes to
    /// `stateHome` (`XDG_STATE_HOME`), by default a fresh folder removed afterwards, so
    /// tests never touch the real home; `home`, when given, is its `HOME`.
    func run(_ arguments: [String], input: Data, stateHome: String? = nil, home: String? = nil) throws
        -> (output: String, errors: String, status: Int32)
    {
        struct NotBuilt: Error {}
        guard let homes = Self.homes else {
            Issue.record("homes was not built next to the tests")
            throw NotBuilt()
        }
        let process = Process()
        process.executableURL = homes
        // Shown times follow a fixed clock, so transcripts are stable from run to run.
        process.arguments = arguments + (arguments.contains("--now") ? [] : ["--now", "1763700000"])
        // Photo paths in the scripts are relative to the transcripts.
        process.currentDirectoryURL = Self.transcripts
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "72"
        let temporaryStateHome = NSTemporaryDirectory() + "homes-state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: temporaryStateHome) }
        environment["XDG_STATE_HOME"] = stateHome ?? temporaryStateHome
        if let home { environment["HOME"] = home }
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit(killingAfter: 120)
        return (
            String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self), process.terminationStatus
        )
    }

    @Test func theListingsSessionMatchesItsTranscript() async throws {
        try matchesItsTranscript("listings")
    }

    /// Saved searches, end to end: saved from the list with and without a name, listed,
    /// run again, deleted, refused where they do not work, opened from their link.
    @Test func theSavedSearchesSessionMatchesItsTranscript() async throws {
        try matchesItsTranscript("saved-searches")
    }

    /// Runs `Transcripts/<name>.in` over a fresh database; its output and errors must be
    /// `<name>.out` and `<name>.err` exactly (`RECORD_TRANSCRIPTS=1` writes them).
    func matchesItsTranscript(_ name: String) throws {
        let input = try Data(contentsOf: Self.transcripts.appendingPathComponent("\(name).in"))
        let expectedURL = Self.transcripts.appendingPathComponent("\(name).out")
        let expectedErrorsURL = Self.transcripts.appendingPathComponent("\(name).err")
        let result = try run(
            ["--db", NSTemporaryDirectory() + "homes-transcript-\(UUID().uuidString).sqlite"], input: input)
        // The scripts have bad commands on purpose: their errors go to standard error, and
        // the exit status says some command failed.
        #expect(result.status == 1)
        if ProcessInfo.processInfo.environment["RECORD_TRANSCRIPTS"] != nil {
            try Data(result.output.utf8).write(to: expectedURL)
            try Data(result.errors.utf8).write(to: expectedErrorsURL)
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(result.output == expected, "update with RECORD_TRANSCRIPTS=1 if the change is intended")
        let expectedErrors = try String(contentsOf: expectedErrorsURL, encoding: .utf8)
        #expect(result.errors == expectedErrors, "update with RECORD_TRANSCRIPTS=1 if the change is intended")
    }

    @Test func theSameScriptGivesTheSameOutput() async throws {
        let input = try Data(contentsOf: Self.transcripts.appendingPathComponent("listings.in"))
        let first = try run(
            ["--latency", "3", "--db", NSTemporaryDirectory() + "homes-a-\(UUID().uuidString).sqlite"], input: input)
        let second = try run(
            ["--latency", "0", "--db", NSTemporaryDirectory() + "homes-b-\(UUID().uuidString).sqlite"], input: input)
        #expect(first.output == second.output)
    }

    /// Piped, every line is echoed before what it does: a line refused because a quote is
    /// not closed too, so its error can be told apart from the line before's.
    @Test func aLineWithAnUnclosedQuoteIsEchoedBeforeItsError() async throws {
        let result = try run(
            ["--db", NSTemporaryDirectory() + "homes-quote-\(UUID().uuidString).sqlite"],
            input: Data("open 1\nask \"is it quiet?\nback\nquit\n".utf8))
        #expect(result.status == 1)
        #expect(result.errors == "error: a quote is not closed\n")
        let echoed = result.output.split(separator: "\n").filter { $0.hasPrefix("> ") }
        #expect(echoed == ["> open 1", "> ask \"is it quiet?", "> back", "> quit"])
    }

    /// `~` is `HOME`, as in a shell, not the account's home the system knows; with `HOME`
    /// empty it is the account's home.
    @Test func aTildeIsTheHomeFolderTheEnvironmentNames() async throws {
        let script = "open 1\nask is it sunny? --photo ~/door.jpg\nquit\n"
        let database = NSTemporaryDirectory() + "homes-tilde-\(UUID().uuidString).sqlite"
        let result = try run(["--db", database], input: Data(script.utf8), home: Self.transcripts.path)
        #expect(result.errors == "")
        #expect(result.output.contains("sent to the agent"))
        let missing = "homes-no-photo-\(UUID().uuidString).jpg"
        let unset = try run(
            ["--db", database], input: Data("open 1\nask hi --photo ~/\(missing)\nquit\n".utf8), home: "")
        #expect(unset.errors == "error: cannot read \(NSHomeDirectory())/\(missing)\n")
    }

    /// After `more`, the map shows both pages numbered as the list, and `open 1` on it
    /// opens listing 1, as it would on the list.
    @Test func theMapShowsEveryListingLoadedAndOpensByTheListsNumbers() async throws {
        let result = try run(
            ["--db", NSTemporaryDirectory() + "homes-map-\(UUID().uuidString).sqlite"],
            input: Data("more\nmap\nopen 1\nback\nopen 16\nquit\n".utf8))
        #expect(result.errors == "")
        let screens = result.output.components(separatedBy: "\n> ")
        let map = try #require(screens.first { $0.hasPrefix("map\n") })
        let numbers = map.split(separator: "\n").dropFirst(3).prefix(16).map {
            $0.split(separator: " ").dropFirst().first.map(String.init)
        }
        #expect(numbers == (1...16).map { "\($0)" })
        #expect(screens.first { $0.hasPrefix("open 1\n") }?.contains("Garden Flat 1\n") == true)
        #expect(screens.first { $0.hasPrefix("open 16\n") }?.contains("Garden Flat 16\n") == true)
    }

    @Test func helpDocumentsEveryFlagAndBadFlagsExitWithUsage() async throws {
        let help = try run(["--help"], input: Data())
        #expect(help.status == 0)
        for flag in ["--api", "--latency", "--seed", "--now", "--version", "--help"] {
            #expect(help.output.contains(flag))
        }
        let bad = try run(["--latency", "soon"], input: Data())
        #expect(bad.status == 2)
        // One line saying what is wrong, one saying where help is; no wall of usage.
        #expect(
            bad.errors
                == "homes: --latency needs a number of milliseconds from 0 to 10000\nrun homes --help for the options\n"
        )
        #expect(bad.output.isEmpty)
        let unknown = try run(["--colour"], input: Data())
        #expect(unknown.status == 2)
        #expect(unknown.errors.hasPrefix("homes: unknown option --colour\n"))
    }

    /// `homes --version` names the newest release in CHANGELOG.md: the release itself, or
    /// its `-dev` version while the release is unreleased.
    @Test func theVersionIsTheChangelogsNewest() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }.map(String.init) ?? ""
        let words = heading.split(separator: " ")
        #expect(words.count >= 2, "CHANGELOG.md has no release heading")
        guard words.count >= 2 else { return }
        let expected = heading.contains("(unreleased)") ? "\(words[1])-dev" : String(words[1])
        let version = try run(["--version"], input: Data())
        #expect(version.output == "homes \(expected)\n")
    }

    @Test func versionAndFlagsWithAnEqualsSign() async throws {
        let version = try run(["--version"], input: Data())
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("homes "))
        let path = NSTemporaryDirectory() + "homes-equals-\(UUID().uuidString).sqlite"
        let result = try run(["--db=\(path)", "--seed=7", "--latency=0"], input: Data("fav 1\nquit\n".utf8))
        #expect(result.status == 0)
        #expect(result.errors.isEmpty)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func garbageInputNeverCrashesTheSession() async throws {
        var generator = SystemRandomNumberGenerator()
        var script = ""
        let words = [
            "list", "more", "filter", "refresh", "back", "help", "open", "rooms", "rent", "静安", "-1", "\u{0}",
            "fav", "unfav", "favs", "go", "homes://listing/detail?kind=rent&id=1", "-9223372036854775808",
            "9223372036854775807", "offline", "online",
            "😀", "\"", "new", "clear", "district", "max_price", String(repeating: "x", count: 300),
        ]
        script += "open -9223372036854775808\nfav 9223372036854775807\nfavs\nunfav -9223372036854775808\nback\n"
        for _ in 0..<200 {
            let count = Int.random(in: 0...4, using: &generator)
            script += (0..<count).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ") + "\n"
        }
        let result = try run(
            ["--db", NSTemporaryDirectory() + "homes-fuzz-\(UUID().uuidString).sqlite"],
            input: Data((script + "quit\n").utf8))
        #expect(result.status == 0 || result.status == 1)
        #expect(!result.errors.contains("Fatal error") && !result.errors.contains("crashed"))
    }
}

@Suite(.serialized) struct FavoritesTranscriptTests {
    @Test func favouritesSurviveARestart() async throws {
        let database = NSTemporaryDirectory() + "homes-favs-\(UUID().uuidString).sqlite"
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        }
        let runner = TranscriptTests()
        let first = try runner.run(["--db", database], input: Data("fav 2\nopen 5\nfav\nquit\n".utf8))
        #expect(first.status == 0)
        let second = try runner.run(["--db", database], input: Data("favs\nunfav 1\nfavs\nquit\n".utf8))
        #expect(second.status == 0)
        let favourites = second.output.components(separatedBy: "> favs\n").dropFirst().map {
            $0.components(separatedBy: "\n> ")[0]
        }
        #expect(favourites.count == 2)
        #expect(favourites.first?.contains("Studio 5") == true)
        #expect(favourites.first?.contains("Courtyard 2") == true)
        #expect(favourites.first?.contains("2 saved") == true)
        #expect(favourites.last?.contains("Studio 5") == false)
        #expect(favourites.last?.contains("1 saved") == true)
    }

    @Test func favouritesAreStampedWithTheRealTimeEvenWhenShownTimesAreFixed() async throws {
        let database = NSTemporaryDirectory() + "homes-stamp-\(UUID().uuidString).sqlite"
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        }
        let before = Date().timeIntervalSince1970
        let result = try TranscriptTests().run(
            ["--db", database, "--now", "1763700000"], input: Data("fav 2\nquit\n".utf8))
        #expect(result.status == 0)
        let rows = try DatabaseRegistry().database(at: database).fetch("SELECT savedAt FROM favorite")
        let savedAt = try #require(rows.first?["savedAt"]?.doubleValue)
        #expect(savedAt >= before.rounded(.down) && savedAt <= Date().timeIntervalSince1970 + 1)
    }

    @Test func anUnusableDatabaseIsReportedAndTheAppStillRuns() async throws {
        let folder = NSTemporaryDirectory() + "homes-notadb-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/notes.sqlite"
        try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let result = try TranscriptTests().run(["--db", path], input: Data("fav 1\nquit\n".utf8))
        #expect(result.status == 1)
        #expect(result.errors.contains("homes: what is saved is unavailable"))
        #expect(result.errors.contains("error: favourites could not be saved"))
    }

    /// A fresh folder for one test, with a state home beside it; both removed at the end.
    final class Scratch {
        let folder = NSTemporaryDirectory() + "homes-files-\(UUID().uuidString)"
        var stateHome: String { folder + "-state" }

        init() throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: stateHome)
        }

        func contents(_ path: String) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        }
    }

    @Test func aMissingDatabaseFolderIsNamedAndNeverCreated() async throws {
        let scratch = try Scratch()
        let missing = scratch.folder + "/missing/folder"
        let path = missing + "/f.sqlite"
        let result = try TranscriptTests().run(
            ["--db", path], input: Data("fav 1\nfavs\nquit\n".utf8),
            stateHome: scratch.stateHome)
        #expect(
            result.errors.contains(
                "homes: what is saved is unavailable: cannot open the database at \(path): the folder \(missing) does not exist\n"
            ))
        #expect(scratch.contents(scratch.folder).isEmpty)
        #expect(scratch.contents(scratch.stateHome + "/homes") == ["routes.json"])
    }

    @Test func theRoutePatchIsKeptInTheStateFolderNotBesideTheDatabase() async throws {
        let scratch = try Scratch()
        let path = scratch.folder + "/f.sqlite"
        let result = try TranscriptTests().run(
            ["--db", path], input: Data("fav 1\nquit\n".utf8),
            stateHome: scratch.stateHome)
        #expect(result.status == 0)
        #expect(scratch.contents(scratch.folder) == ["f.sqlite"])
        #expect(scratch.contents(scratch.stateHome + "/homes") == ["routes.json"])
        let patch = try JSONValue(
            parsing: Data(contentsOf: URL(fileURLWithPath: scratch.stateHome + "/homes/routes.json")))
        #expect(patch["routes"]?.arrayValue != nil)
    }

    /// Write protection is the permission bits, which count even for root (tests may run as
    /// root, whom the bits would not stop).
    @Test(arguments: ["file", "folder"])
    func aReadOnlyDatabaseListsItsFavouritesAndRefusesChanges(protecting: String) async throws {
        let scratch = try Scratch()
        let path = scratch.folder + "/f.sqlite"
        let runner = TranscriptTests()
        let first = try runner.run(
            ["--db", path], input: Data("fav 1\nfav 2\nquit\n".utf8), stateHome: scratch.stateHome)
        #expect(first.status == 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
            [.posixPermissions: protecting == "file" ? 0o444 : 0o644], ofItemAtPath: path)
        try FileManager.default.setAttributes(
            [.posixPermissions: protecting == "folder" ? 0o555 : 0o755],
            ofItemAtPath: scratch.folder)
        let second = try runner.run(
            ["--db", path], input: Data("fav 3\nfavs\nunfav 1\nfavs\nquit\n".utf8),
            stateHome: scratch.stateHome)
        #expect(second.status == 1)
        #expect(second.errors.hasPrefix("homes: \(path) is read-only: what is saved can be listed, not changed\n"))
        let refusal = "error: favourites could not be saved: the database \(path) is read-only; nothing was written\n"
        #expect(second.errors.components(separatedBy: refusal).count - 1 == 2, "\(second.errors)")
        #expect(!second.errors.contains("not a usable SQLite database"))
        let lists = second.output.components(separatedBy: "> favs\n").dropFirst()
        #expect(lists.count == 2)
        for list in lists {
            #expect(list.contains("Garden Flat 1") && list.contains("Courtyard 2") && list.contains("2 saved"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == stored)
        #expect(scratch.contents(scratch.folder) == ["f.sqlite"])
    }
}

@Suite(.serialized) struct ServeEndToEndTests {
    @Test func homesAgainstHomesServeMatchesTheEmbeddedAPI() async throws {
        let homes = try #require(TranscriptTests.homes)
        let server = Process()
        server.executableURL = homes
        server.arguments = ["serve", "--port", "0", "--now", "1763700000"]
        let serverInput = Pipe()
        let serverOutput = Pipe()
        server.standardInput = serverInput
        server.standardOutput = serverOutput
        try server.run()
        // Standard input at its end does not stop the server; SIGTERM does, cleanly.
        try serverInput.fileHandleForWriting.close()
        defer {
            server.terminate()
            server.waitUntilExit(killingAfter: 120)
        }
        var announced = Data()
        let deadline = Date().addingTimeInterval(10)
        while !announced.contains(UInt8(ascii: "\n")), Date() < deadline {
            announced += serverOutput.fileHandleForReading.availableData
        }
        let line = String(decoding: announced, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.hasPrefix("serving http://127.0.0.1:"))
        let url = String(line.dropFirst("serving ".count))

        let input = try Data(contentsOf: TranscriptTests.transcripts.appendingPathComponent("listings.in"))
        let runner = TranscriptTests()
        let overHTTP = try runner.run(
            ["--api", url, "--db", NSTemporaryDirectory() + "homes-http-\(UUID().uuidString).sqlite"],
            input: input)
        let embedded = try runner.run(
            ["--db", NSTemporaryDirectory() + "homes-local-\(UUID().uuidString).sqlite"], input: input)
        #expect(overHTTP.status == embedded.status)
        #expect(overHTTP.output == embedded.output)
        #expect(overHTTP.errors == embedded.errors)
        #expect(server.isRunning)
        server.terminate()
        server.waitUntilExit(killingAfter: 120)
        #expect(server.terminationReason == .exit && server.terminationStatus == 0)
    }
}
