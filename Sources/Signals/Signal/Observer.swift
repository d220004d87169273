import Synchronization

/// One registration on a `SignalCore`, and the `Disposable` handed out for it.
///
/// Delivery calls `receive`/`complete` through the class, so an operator's link
/// (`ForwardObserver`) costs no reference counting per event; a caller's closures live
/// in a `ClosureObserver`, which frees them as soon as it is disposed.
@usableFromInline
class Observer<Value>: Disposable, @unchecked Sendable {
    /// The core this observer is registered on; touched only by whoever claims disposal.
    @usableFromInline @exclusivity(unchecked) var core: SignalCore<Value>?
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    init() {}

    /// Handles a value; called only by the thread delivering the signal.
    @usableFromInline
    func receive(_ value: Value) {}

    /// Handles the completion; called once, only by the thread delivering the signal.
    @usableFromInline
    func complete() {}

    /// Frees what the observer holds. Only called when no thread can be delivering to it.
    @usableFromInline
    func clear() {}

    @inlinable
    final var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Marks the observer disposed; true for the one caller that did so first.
    @inlinable
    final func claimDisposal() -> Bool {
        !disposed.exchange(true, ordering: .acquiringAndReleasing)
    }

    @inlinable
    final func dispose() {
        guard claimDisposal() else { return }
        let core = self.core
        self.core = nil
        if let core {
            core.remove(self)
        } else {
            clear()
        }
    }
}

/// An observer running a caller's closures, freed when it is disposed or completes.
@usableFromInline
final class ClosureObserver<Value>: Observer<Value>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var onValue: ((Value) -> Void)?
    @usableFromInline @exclusivity(unchecked) var onCompleted: (() -> Void)?

    @inlinable
    init(onValue: ((Value) -> Void)?, onCompleted: (() -> Void)?) {
        self.onValue = onValue
        self.onCompleted = onCompleted
    }

    @usableFromInline
    override func receive(_ value: Value) {
        onValue?(value)
    }

    @usableFromInline
    override func complete() {
        onCompleted?()
    }

    @usableFromInline
    override func clear() {
        onValue = nil
        onCompleted = nil
    }
}

/// The link from a source to an operator: fixed closures, freed with the link, which
/// happens as soon as the operator stops listening (the source drops it then).
@usableFromInline
final class ForwardObserver<Value>: Observer<Value>, @unchecked Sendable {
    @usableFromInline let onValue: (Value) -> Void
    @usableFromInline let onCompleted: () -> Void

    @inlinable
    init(onValue: @escaping (Value) -> Void, onCompleted: @escaping () -> Void) {
        self.onValue = onValue
        self.onCompleted = onCompleted
    }

    @usableFromInline
    override func receive(_ value: Value) {
        onValue(value)
    }

    @usableFromInline
    override func complete() {
        onCompleted()
    }
}
