import Synchronization

/// One registration on a `SignalCore`: the closures it calls and the `Disposable` handed out.
///
/// Its closures are cleared when it is disposed or its signal completes, outside any
/// delivery, so whatever they capture is freed at once.
final class Observer<Value>: Disposable, @unchecked Sendable {
    /// Called for each value; read only by the thread delivering the signal.
    var onValue: ((Value) -> Void)?
    /// Called once on completion; read only by the thread delivering the signal.
    var onCompleted: (() -> Void)?
    /// The core this observer is registered on; touched only by whoever claims disposal.
    var core: SignalCore<Value>?
    private let disposed = Atomic<Bool>(false)

    init(onValue: ((Value) -> Void)?, onCompleted: (() -> Void)?) {
        self.onValue = onValue
        self.onCompleted = onCompleted
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Marks the observer disposed; true for the one caller that did so first.
    @inline(__always)
    func claimDisposal() -> Bool {
        !disposed.exchange(true, ordering: .acquiringAndReleasing)
    }

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
    func clear() {
        onValue = nil
        onCompleted = nil
    }
}
