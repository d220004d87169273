import Foundation
import Persistence
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `homes` as a running process fed line by line, for what only signals can show.
final class LiveHomes: Sendable {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let watched = WatchedOutput()
    /// Where the app keeps its state (`XDG_STATE_HOME`), so tests never touch the real home.
    let stateHome = NSTemporaryDirectory() + "homes-state-\(UUID().uuidString)"

    init(_ arguments: [String]) throws {
        let homes = try #require(TranscriptTests.homes)
        process.executableURL = homes
        process.arguments = arguments + ["--now", "1763700000"]
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "72"
        environment["XDG_STATE_HOME"] = stateHome
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        watched.read(from: output.fileHandleForReading)
        try process.run()
    }

    var text: String { watched.text }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits (at most `seconds`) until the output contains `marker` `count` times.
    func waitFor(_ marker: String, count: Int = 1, seconds: Double = 20) -> Bool {
        watched.waitUntil(seconds: seconds) { $0.components(separatedBy: marker).count - 1 >= count }
    }

    func finish() -> Int32 {
        process.waitUntilExit(killingAfter: 120)
        return process.terminationStatus
    }

    deinit {
        try? FileManager.default.removeItem(atPath: stateHome)
    }
}

@Suite(.serialized) struct ProcessSignalTests {
    @Test func ctrlCCancelsTheWorkInFlightAndTheSessionGoesOn() throws {
        let homes = try LiveHomes([
            "--latency", "1500", "--db", NSTemporaryDirectory() + "homes-int-\(UUID().uuidString).sqlite",
        ])
        #expect(homes.waitFor("8 shown"))
        homes.send("refresh")
        #expect(homes.waitFor("> refresh"))
        homes.process.interrupt()
        #expect(homes.waitFor("! cancelled"))
        homes.send("list new")
        #expect(homes.waitFor("New homes"))
        homes.send("quit")
        #expect(homes.finish() == 0)
    }

    @Test func sigtermLeavesCleanlyWithTheDatabaseClosed() throws {
        let path = NSTemporaryDirectory() + "homes-term-\(UUID().uuidString).sqlite"
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let homes = try LiveHomes(["--db", path])
        #expect(homes.waitFor("8 shown"))
        homes.send("fav 2")
        #expect(homes.waitFor("★"))
        homes.process.terminate()
        #expect(homes.finish() == 0)
        #expect(homes.process.terminationReason == .exit)
        // Closed: the write-ahead log was folded into the file and removed.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let rows = try DatabaseRegistry().database(at: path).fetch("SELECT name FROM favorite")
        #expect(rows.count == 1)
    }

    @Test func sighupLeavesCleanlyToo() throws {
        let homes = try LiveHomes(["--db", NSTemporaryDirectory() + "homes-hup-\(UUID().uuidString).sqlite"])
        #expect(homes.waitFor("8 shown"))
        kill(homes.process.processIdentifier, SIGHUP)
        #expect(homes.finish() == 0)
        #expect(homes.process.terminationReason == .exit)
    }

    @Test func aChildThatHangsIsKilledAtTheWaitsDeadlineInsteadOfHangingTheRun() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/cat")
        child.standardInput = Pipe() // never written to or closed: cat waits forever
        try child.run()
        child.waitUntilExit(killingAfter: 1)
        // Killed, not ended on its own: the deadline, not the child, ended the wait.
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL)
    }

    @Test func serveStopsCleanlyOnASignalSentTheMomentItAnnouncesItself() throws {
        // The signal handlers are in place before the announcement: a SIGINT sent as soon
        // as it is read neither kills the server (default action) nor is lost (a hang).
        for _ in 0..<5 {
            let server = Process()
            server.executableURL = TranscriptTests.homes
            server.arguments = ["serve", "--port", "0"]
            server.standardInput = FileHandle.nullDevice
            let output = Pipe()
            server.standardOutput = output
            let exited = DispatchSemaphore(value: 0)
            server.terminationHandler = { _ in exited.signal() }
            try server.run()
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            #expect(line.hasPrefix("serving http://127.0.0.1:"))
            server.interrupt()
            guard exited.wait(timeout: .now() + 20) == .success else {
                Issue.record("the server did not stop within 20 s of SIGINT")
                server.terminate()
                kill(server.processIdentifier, SIGKILL)
                return
            }
            #expect(server.terminationReason == .exit && server.terminationStatus == 0)
        }
    }

    @Test func serveKeepsServingWithStandardInputAtItsEnd() async throws {
        let homes = TranscriptTests.homes.map { url in
            let process = Process()
            process.executableURL = url
            process.arguments = ["serve", "--port", "0"]
            process.standardInput = FileHandle.nullDevice
            return process
        }
        let server = try #require(homes)
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(line.hasPrefix("serving http://127.0.0.1:"))
        let url = try #require(
            URL(string: line.dropFirst("serving ".count).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Well after standard input ended, it still answers.
        let (_, response) = try await URLSession.shared.data(from: url.appendingPathComponent("nothing-here"))
        #expect(response is HTTPURLResponse)
        #expect(server.isRunning)
        server.interrupt()
        server.waitUntilExit(killingAfter: 120)
        #expect(server.terminationReason == .exit && server.terminationStatus == 0)
    }
}
