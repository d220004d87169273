import Foundation

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

/// A route patch store in a file.
public struct FileRoutePatchStore: RoutePatchStore {
    /// The file.
    public let url: URL

    /// Stores the patch in `url`.
    public init(url: URL) {
        self.url = url
    }

    public func load() -> Data? {
        try? Data(contentsOf: url)
    }

    public func save(_ patch: Data) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? patch.write(to: url, options: .atomic)
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
                      let action = route["action"] as? String, !action.isEmpty else {
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
                throw RoutePatchError(message: "\(key) is remapped to \(target)/\(action), which this patch also "
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
