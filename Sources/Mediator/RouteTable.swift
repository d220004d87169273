import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a route patch was rejected.
public struct RoutePatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the entry.
    public let message: String

    /// An error saying `message`.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Where the last valid route patch is kept between launches.
public protocol RoutePatchStore: Sendable {
    /// The stored patch, if any.
    func load() -> Data?
    /// Stores `patch`, replacing the previous one.
    func save(_ patch: Data)
}

/// A route patch store that keeps the patch in a file.
///
/// A patch is written whole or not at all: into a temporary file in the same folder (named
/// `.<file name>.<process id>.<random>.tmp`, which `load()` never reads), flushed to disk,
/// then renamed over the file. The folder is created (mode 0700) when missing. Making a
/// store removes the temporaries of processes that died while writing (killed, say), so
/// none are left behind for good.
public struct FileRoutePatchStore: RoutePatchStore {
    /// The file.
    public let url: URL

    /// Stores the patch in `url`, after removing temporaries left beside it by dead writers.
    public init(url: URL) {
        self.url = url
        removeStaleTemporaries()
    }

    /// The stored patch, or nil when there is none or it cannot be read.
    public func load() -> Data? {
        try? Data(contentsOf: url)
    }

    /// Replaces the stored patch with `patch` in one step.
    ///
    /// When the write fails the previous patch stays.
    public func save(_ patch: Data) {
        _ = replace(with: patch)
    }

    /// The start of the name of every temporary this store writes.
    private var temporaryPrefix: String { "." + url.lastPathComponent + "." }

    private func replace(with patch: Data) -> Bool {
        let folder = url.deletingLastPathComponent()
        guard
            (try? FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])) != nil
        else { return false }
        let name = temporaryPrefix + "\(getpid()).\(String(UInt32.random(in: .min ... .max), radix: 16)).tmp"
        let temporary = folder.appendingPathComponent(name).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = Self.writeAll(patch, to: descriptor) && fsync(descriptor) == 0
        close(descriptor)
        guard written, rename(temporary, url.path) == 0 else {
            unlink(temporary)
            return false
        }
        // The rename reaches the disk with the folder's entry.
        let folderDescriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
        return true
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// Removes the temporaries of processes that are gone; a live process's temporary may
    /// be in the middle of its write and stays.
    private func removeStaleTemporaries() {
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let prefix = Array(temporaryPrefix.utf8)
        for name in names where name.utf8.starts(with: prefix) && name.hasSuffix(".tmp") {
            let fields = name.utf8.dropFirst(prefix.count).split(separator: UInt8(ascii: "."))
            guard fields.count == 3, let writer = pid_t(String(decoding: fields[0], as: UTF8.self)), writer > 0
            else { continue }
            let alive = writer == getpid() || kill(writer, 0) == 0 || errno == EPERM
            if !alive { unlink(folder.appendingPathComponent(name).path) }
        }
    }
}

/// Remaps or disables calls, from a route patch:
///
/// ```json
/// {"version": 2, "routes": [
///   {"url": "homes://listing/detail", "target": "listing", "action": "detailV2"},
///   {"url": "homes://favorites/list", "disabled": true, "message": "Favourites are resting."}
/// ]}
/// ```
struct RouteTable {
    enum Resolution: Equatable {
        case unchanged
        case remapped(target: String, action: String)
        case disabled(String)
    }

    private(set) var version = 0
    private var entries: [String: Resolution] = [:]

    init() {}

    /// Parses and validates a patch; `check(target, action)` returns a problem or nil.
    init(patch data: Data, scheme: String, check: (String, String) -> String?) throws {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw RoutePatchError(message: "the route patch is not a JSON object")
        }
        guard let version = root["version"] as? Int, version > 0 else {
            throw RoutePatchError(message: "the route patch needs a positive integer \"version\"")
        }
        guard let routes = root["routes"] as? [[String: Any]] else {
            throw RoutePatchError(message: "the route patch needs a \"routes\" array of objects")
        }
        var entries: [String: Resolution] = [:]
        for (index, route) in routes.enumerated() {
            let label = "route \(index + 1)"
            guard let text = route["url"] as? String, let url = MediatorURL(text, scheme: scheme) else {
                throw RoutePatchError(message: "\(label): \"url\" must be \(scheme)://target/action")
            }
            let key = "\(url.target)/\(url.action)"
            guard entries[key] == nil else { throw RoutePatchError(message: "\(label): \(key) appears twice") }
            if let disabled = route["disabled"] as? Bool, disabled {
                guard let message = route["message"] as? String, !message.isEmpty else {
                    throw RoutePatchError(message: "\(label): a disabled route needs a \"message\" to show")
                }
                entries[key] = .disabled(message)
            } else {
                guard let target = route["target"] as? String, !target.isEmpty,
                    let action = route["action"] as? String, !action.isEmpty
                else {
                    throw RoutePatchError(message: "\(label): give \"target\" and \"action\", or \"disabled\": true")
                }
                if let problem = check(target, action) {
                    throw RoutePatchError(message: "\(label): \(problem)")
                }
                entries[key] = .remapped(target: target, action: action)
            }
        }
        // A remap must land on a call that runs: not on one this patch disables or remaps
        // again (remaps are not chained).
        for (key, resolution) in entries.sorted(by: { $0.key < $1.key }) {
            if case .remapped(let target, let action) = resolution, let next = entries["\(target)/\(action)"] {
                throw RoutePatchError(
                    message: "\(key) is remapped to \(target)/\(action), which this patch also "
                        + (Self.isDisabled(next) ? "disables" : "remaps"))
            }
        }
        self.version = version
        self.entries = entries
    }

    private static func isDisabled(_ resolution: Resolution) -> Bool {
        if case .disabled = resolution { return true }
        return false
    }

    func resolve(target: String, action: String) -> Resolution {
        entries["\(target)/\(action)"] ?? .unchanged
    }
}
