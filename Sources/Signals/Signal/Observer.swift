import Synchronization

/// One registration on a `SignalCore`: the closures it calls and the `Disposable` handed out.
///
/// Its closures are cleared when it is disposed or its signal completes, outside any
/// delivery, so whatever they capture is freed at once.
@usableFromInline
final class Observer<Value>: Disposable, @unchecked Sendable {
    /// Called for each value; read only by the thread delivering the signal.
    @usableFromInline @exclusivity(unchecked) var onValue: ((Value) -> Void)?
    /// Called once on completion; read only by the thread delivering the signal.
    @usableFromInline @exclusivity(unchecked) var onCompleted: (() -> Void)?
    /// The core this observer is registered on; touched only by whoever claims disposal.
    @usableFromInline @exclusivity(unchecked) var core: SignalCore<Value>?
    @usableFromInline let disposed = Atomic<Bool>(false)

    @inlinable
    init(onValue: ((Value) -> Void)?, onCompleted: (() -> Void)?) {
        self.onValue = onValue
        self.onCompleted = onCompleted
    }

    @inlinable
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Marks the observer disposed; true for the one caller that did so first.
    @inlinable
    func claimDisposal() -> Bool {
        !disposed.exchange(true, ordering: .acquiringAndReleasing)
    }

    @inlinable
    func dispose() {
        guard claimDisposal() else { return }
        let core = self.core
        self.core = nil
        if let core {
            core.remove(self)
        } else {
            clear()
        }
    }

    /// Frees the closures. Only called when no thread can be calling them.
    @inlinable
    func clear() {
        onValue = nil
        onCompleted = nil
    }
}
