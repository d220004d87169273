import Synchronization

/// Mutable state of an operator, shared by its closures.
///
/// Operators touch it only inside serialized deliveries, so it skips Swift's dynamic
/// exclusivity checks, which would otherwise dominate the cost of each event.
// Safe to share: operators touch it only inside serialized deliveries of one core.
@usableFromInline
final class StateCell<Value>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}

/// A flag any thread may read and set: whether a run has ended, or an action was executing
/// when last seen.
final class AtomicFlag: Sendable {
    private let state = Atomic<Bool>(false)

    var value: Bool { state.load(ordering: .acquiring) }

    /// Sets the flag to `value` and returns what it was: `!exchange(true)` claims it once.
    @discardableResult
    func exchange(_ value: Bool) -> Bool {
        state.exchange(value, ordering: .acquiringAndReleasing)
    }
}
