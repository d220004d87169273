import Foundation

/// Watches objects through weak references to prove they were freed (no retain cycles).
///
/// ```swift
/// let tracker = ReleaseTracker()
/// do {
///     let controller = ListingController()
///     tracker.track(controller, "controller")
/// }
/// tracker.assertAllReleased()
/// ```
// Safe to share: `entries` is touched only under `lock`.
public final class ReleaseTracker: @unchecked Sendable {
    private struct Entry {
        weak var object: AnyObject?
        let name: String
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Creates a tracker watching nothing.
    public init() {}

    /// Starts watching `object` under `name`.
    public func track(_ object: AnyObject, _ name: String) {
        lock.locked { entries.append(Entry(object: object, name: name)) }
    }

    /// The names of watched objects that are still alive.
    public var alive: [String] {
        lock.locked { entries.filter { $0.object != nil }.map(\.name) }
    }

    /// Fails the test for every watched object that is still alive.
    public func assertAllReleased(
        fileID: String = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let names = alive
        guard !names.isEmpty else { return }
        reportFailure(
            "still alive: \(names.joined(separator: ", "))",
            fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
