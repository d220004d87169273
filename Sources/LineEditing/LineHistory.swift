import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lines entered, oldest first, kept across runs in a file of one line per entry.
///
/// Blank lines, repeats of the newest entry and lines longer than `maximumLineLength`
/// characters (a paste of a file, say) are not kept, and only the newest `capacity`
/// entries are: so a search through the history (Ctrl-R) or a suggestion from it costs
/// at most `capacity` times `maximumLineLength` characters, whatever was typed. Each
/// line added is appended to the file at once (mode 0600, its folder created), and the
/// file is rewritten when it holds more than `capacity` lines. A missing, unreadable or
/// garbled file means an empty (or partial) history, and a file that cannot be written
/// means one kept in memory: never a crash.
public final class LineHistory {
    /// The file the history is kept in; nil for one kept in memory only.
    public let fileURL: URL?
    /// How many entries are kept.
    public let capacity: Int
    /// The longest line kept, in characters; longer lines are run but not remembered.
    public static let maximumLineLength = 4_096
    /// The entries, oldest first.
    public private(set) var entries: [String]
    /// How many lines the file holds, to know when to rewrite it.
    private var linesInFile: Int

    /// The history kept in `fileURL` (nil: in memory only), read from it now.
    public init(fileURL: URL?, capacity: Int = 1_000) {
        self.fileURL = fileURL
        self.capacity = max(1, capacity)
        let lines = fileURL.flatMap(Self.read) ?? []
        linesInFile = lines.count
        entries = []
        for case let line? in lines { keep(line) }
    }

    /// The history of `appName` at its default place (see `defaultURL`), or in memory when
    /// there is no home to keep it in.
    public convenience init(
        appName: String, capacity: Int = 1_000,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.init(fileURL: Self.defaultURL(appName: appName, environment: environment), capacity: capacity)
    }

    /// `history` in `appName`'s state folder (see `stateFolder`); nil without one.
    public static func defaultURL(appName: String, environment: [String: String]) -> URL? {
        stateFolder(appName: appName, environment: environment)?.appendingPathComponent("history")
    }

    /// The folder where `appName` keeps its state between runs, the history among it:
    /// `$XDG_STATE_HOME/<appName>` when `XDG_STATE_HOME` is an absolute path, else
    /// `$HOME/.local/state/<appName>`; nil without either. It may not exist yet.
    public static func stateFolder(appName: String, environment: [String: String]) -> URL? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent(appName)
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state").appendingPathComponent(appName)
    }

    /// Adds `line` (unless blank or the same as the newest entry) and saves it.
    public func add(_ line: String) {
        let line = Self.singleLine(line)
        guard keep(line), let fileURL else { return }
        if linesInFile + 1 > capacity {
            if Self.rewrite(fileURL, with: entries) { linesInFile = entries.count }
        } else if Self.append(line, to: fileURL) {
            linesInFile += 1
        }
    }

    /// Adds `line` to the entries, if it is to be kept; true if it was.
    @discardableResult
    private func keep(_ line: String) -> Bool {
        guard !line.allSatisfy(\.isWhitespace), entries.last != line,
            line.utf8.count <= Self.maximumLineLength || line.count <= Self.maximumLineLength
        else { return false }
        entries.append(line)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        return true
    }

    /// `line` with its line breaks and other controls made spaces, so it stays one line.
    private static func singleLine(_ line: String) -> String {
        String(line.map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 })
    }

    // MARK: - The file

    /// The file's lines, nil for those that are not text (NUL bytes, invalid UTF-8).
    private static func read(_ url: URL) -> [String?]? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return data.split(separator: UInt8(ascii: "\n")).map { bytes in
            guard let line = String(validating: bytes, as: UTF8.self),
                !line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" })
            else { return nil }
            return line
        }
    }

    private static func append(_ line: String, to url: URL) -> Bool {
        guard makeFolder(for: url) else { return false }
        let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        fchmod(descriptor, 0o600)
        return writeAll(Array((line + "\n").utf8), to: descriptor)
    }

    /// Writes `lines` to a new file next to `url`, then moves it over `url` in one step.
    private static func rewrite(_ url: URL, with lines: [String]) -> Bool {
        guard makeFolder(for: url) else { return false }
        let temporary = url.path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = writeAll(Array(lines.map { $0 + "\n" }.joined().utf8), to: descriptor)
        close(descriptor)
        guard written, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    private static func makeFolder(for url: URL) -> Bool {
        let folder = url.deletingLastPathComponent()
        return
            (try? FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
