import Foundation
import LineEditing
import Testing

@Suite struct LineHistoryTests {
    /// A folder of its own for one test, removed after `body`.
    func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("line-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    func contents(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    @Test func linesAreKeptAcrossRunsInAFileOfMode0600() throws {
        try withFolder { (folder: URL) throws in
            let url = folder.appendingPathComponent("homes/history")
            let history = LineHistory(fileURL: url)
            #expect(history.entries.isEmpty, "no file yet: an empty history")
            history.add("list new")
            history.add("open 3")
            #expect(try contents(url) == "list new\nopen 3\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(LineHistory(fileURL: url).entries == ["list new", "open 3"])
        }
    }

    @Test func blankLinesAndRepeatsAreNotKept() throws {
        try withFolder { (folder: URL) throws in
            let url = folder.appendingPathComponent("history")
            let history = LineHistory(fileURL: url)
            for line in ["list", "list", "  ", "", "more", "list"] { history.add(line) }
            #expect(history.entries == ["list", "more", "list"])
            #expect(try contents(url) == "list\nmore\nlist\n")
        }
    }

    @Test func linesLongerThanTheCapAreNotKept() {
        let history = LineHistory(fileURL: nil)
        history.add(String(repeating: "x", count: LineHistory.maximumLineLength + 1))
        history.add(String(repeating: "静", count: LineHistory.maximumLineLength))
        #expect(history.entries == [String(repeating: "静", count: LineHistory.maximumLineLength)])
    }

    @Test func theHistoryIsCappedInMemoryAndOnDisk() throws {
        try withFolder { (folder: URL) throws in
            let url = folder.appendingPathComponent("history")
            let history = LineHistory(fileURL: url, capacity: 3)
            for number in 1...5 { history.add("line \(number)") }
            #expect(history.entries == ["line 3", "line 4", "line 5"])
            #expect(try contents(url) == "line 3\nline 4\nline 5\n")
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "the rewritten file too")
            // A file longer than the cap (from an older, larger cap) is read to its newest entries.
            try (1...10).map { "old \($0)\n" }.joined().write(to: url, atomically: true, encoding: .utf8)
            let reread = LineHistory(fileURL: url, capacity: 3)
            #expect(reread.entries == ["old 8", "old 9", "old 10"])
            reread.add("new")
            #expect(try contents(url) == "old 9\nold 10\nnew\n")
        }
    }

    @Test func aGarbledFileGivesWhatCanBeReadAndNeverACrash() throws {
        try withFolder { (folder: URL) throws in
            let url = folder.appendingPathComponent("history")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var bytes = Array("good one\n".utf8)
            bytes += [0xFF, 0xFE, 0x00, 0x41, 0x0A] // invalid UTF-8 and a NUL
            bytes += Array("\n\nsecond 静\n".utf8)
            bytes += [0x62, 0x61, 0x64, 0x00, 0x0A] // a NUL inside a line
            try Data(bytes).write(to: url)
            let history = LineHistory(fileURL: url)
            #expect(history.entries == ["good one", "second 静"])
            history.add("third")
            #expect(LineHistory(fileURL: url).entries == ["good one", "second 静", "third"])
        }
    }

    @Test func anUnreadableOrUnwritablePathMeansAHistoryInMemory() throws {
        try withFolder { (folder: URL) throws in
            // The "file" is a folder: it can be neither read nor written.
            let url = folder.appendingPathComponent("history")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let history = LineHistory(fileURL: url)
            #expect(history.entries.isEmpty)
            history.add("still works")
            #expect(history.entries == ["still works"])
        }
        let inMemory = LineHistory(fileURL: nil)
        inMemory.add("kept")
        #expect(inMemory.entries == ["kept"])
    }

    @Test func lineBreaksDoNotSplitAnEntry() throws {
        try withFolder { (folder: URL) throws in
            let url = folder.appendingPathComponent("history")
            LineHistory(fileURL: url).add("ask quiet?\nreally")
            #expect(LineHistory(fileURL: url).entries == ["ask quiet? really"])
        }
    }

    @Test func theDefaultPathFollowsXDG() {
        let xdg = LineHistory.defaultURL(
            appName: "homes", environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/mei"])
        #expect(xdg?.path == "/state/homes/history")
        let home = LineHistory.defaultURL(appName: "homes", environment: ["HOME": "/home/mei"])
        #expect(home?.path == "/home/mei/.local/state/homes/history")
        let relative = LineHistory.defaultURL(
            appName: "homes", environment: ["XDG_STATE_HOME": "state", "HOME": "/home/mei"])
        #expect(relative?.path == "/home/mei/.local/state/homes/history", "a relative XDG_STATE_HOME is ignored")
        #expect(LineHistory.defaultURL(appName: "homes", environment: [:]) == nil)
    }

    @Test func theStateFolderHoldsTheHistory() {
        let environment = ["XDG_STATE_HOME": "/state", "HOME": "/home/mei"]
        #expect(LineHistory.stateFolder(appName: "homes", environment: environment)?.path == "/state/homes")
        #expect(
            LineHistory.stateFolder(appName: "homes", environment: ["HOME": "/home/mei"])?.path
                == "/home/mei/.local/state/homes")
        #expect(LineHistory.stateFolder(appName: "homes", environment: [:]) == nil)
    }

    @Test func theDefaultHistoryCreatesItsFolder() throws {
        try withFolder { (folder: URL) throws in
            let history = LineHistory(appName: "homes", environment: ["XDG_STATE_HOME": folder.path])
            #expect(history.fileURL?.path == folder.appendingPathComponent("homes/history").path)
            history.add("list")
            var isFolder: ObjCBool = false
            #expect(
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent("homes").path, isDirectory: &isFolder))
            #expect(isFolder.boolValue)
            #expect(LineHistory(appName: "homes", environment: ["XDG_STATE_HOME": folder.path]).entries == ["list"])
        }
    }

    @Test func theEditorAddsSubmittedLinesToTheFile() throws {
        try withFolder { (folder: URL) throws in
            let url = folder.appendingPathComponent("history")
            let session = try TypingSession(["list rent\r"])
            let editor = LineEditor(
                history: LineHistory(fileURL: url), input: session.pty.terminal,
                write: { session.write($0) })
            #expect(editor.readLine(prompt: "> ") == "list rent")
            #expect(try contents(url) == "list rent\n")
        }
    }
}
