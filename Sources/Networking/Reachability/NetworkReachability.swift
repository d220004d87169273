import Foundation

/// The app's word on whether the network is reachable.
///
/// The app reports changes (from the platform, or the REPL's `offline`/`online`); while
/// unreachable, requests fail at once with `APIResultKind.noNetwork`. This is the one
/// cross-layer broadcast the architecture allows.
// Safe to share: `reachable` and `observers` are touched only under `lock`.
public final class NetworkReachability: @unchecked Sendable {
    private let lock = NSLock()
    private var reachable: Bool
    private var observers: [UUID: @Sendable (Bool) -> Void] = [:]

    /// Starts reachable unless told otherwise.
    public init(isReachable: Bool = true) {
        reachable = isReachable
    }

    /// Whether requests may go out.
    public var isReachable: Bool {
        lock.lock()
        defer { lock.unlock() }
        return reachable
    }

    /// Records a new status and tells every observer if it changed.
    public func update(isReachable: Bool) {
        lock.lock()
        let changed = reachable != isReachable
        reachable = isReachable
        let current = Array(observers.values)
        lock.unlock()
        if changed { current.forEach { $0(isReachable) } }
    }

    /// Calls `action` on every change until the returned token is cancelled.
    ///
    /// - Parameter action: Called with the new status, on the thread that reported it.
    /// - Returns: The observation; cancelling or freeing it stops the calls.
    public func observe(_ action: @escaping @Sendable (Bool) -> Void) -> ReachabilityObservation {
        let id = UUID()
        lock.lock()
        observers[id] = action
        lock.unlock()
        return ReachabilityObservation { [weak self] in
            guard let self else { return }
            self.lock.lock()
            let removed = self.observers.removeValue(forKey: id)
            self.lock.unlock()
            // Let go after the lock: the closure may hold the last reference to something
            // whose deinit cancels its own observation of this reachability.
            withExtendedLifetime(removed) {}
        }
    }
}

/// Stops a reachability observation.
// Safe to share: `onCancel` is touched only under `lock`.
public final class ReachabilityObservation: @unchecked Sendable {
    private var onCancel: (() -> Void)?
    private let lock = NSLock()

    init(_ onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    deinit {
        cancel()
    }

    /// Stops the observation.
    ///
    /// Freeing the token stops it too.
    public func cancel() {
        lock.lock()
        let action = onCancel
        onCancel = nil
        lock.unlock()
        action?()
    }
}
