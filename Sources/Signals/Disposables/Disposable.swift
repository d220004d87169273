import Synchronization

/// Something that can be stopped: an observation, a binding, a scheduled action.
///
/// Disposing is immediate and idempotent: after `dispose()` returns, the work it
/// stands for receives nothing more, and a second call does nothing.
///
/// ```swift
/// let subscription: Disposable = signal.observe { print($0) }
/// subscription.dispose()
/// ```
public protocol Disposable: AnyObject, Sendable {
    /// Whether `dispose()` has been called (or the work ended by itself).
    var isDisposed: Bool { get }
    /// Stops the work this disposable stands for. Calling it again does nothing.
    func dispose()
}

extension Disposable {
    /// Hands this disposable to `bag`, which disposes it when the bag is disposed or freed.
    ///
    /// ```swift
    /// property.observe { label.text = $0 }.dispose(in: bag)
    /// ```
    public func dispose(in bag: DisposeBag) {
        bag.insert(self)
    }
}

/// A disposable that runs a closure once, on the first `dispose()`, from any thread.
///
/// ```swift
/// let signal = Signal<Int> { input in
///     let timer = startTimer { input.send($0) }
///     return AnyDisposable { timer.stop() }
/// }
/// ```
// Safe to share: `action` is written once in `init` and taken only by the one caller
// that wins the atomic `disposed` exchange.
public final class AnyDisposable: Disposable, @unchecked Sendable {
    private let disposed = Atomic<Bool>(false)
    private var action: (@Sendable () -> Void)?

    /// Creates a disposable that runs `action` when first disposed.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = action
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Runs the action, the first time only.
    public func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // A swap, not `action.take()`: the generic take reabstracts the closure, which
        // allocates in a debug build (the allocation thresholds CI checks).
        let action = self.action
        self.action = nil
        action?()
    }
}

/// A disposable that is already disposed: returned for work that ended before it began.
final class DisposedDisposable: Disposable {
    static let shared = DisposedDisposable()
    var isDisposed: Bool { true }
    func dispose() {}
}

/// A disposable that disposes a list of others together.
// Safe to share: `members` is touched only under `lock`.
@usableFromInline
final class CompositeDisposable: Disposable, @unchecked Sendable {
    private let lock = SpinLock()
    private var members: [Disposable]? = []

    @usableFromInline
    init(_ members: [Disposable] = []) {
        self.members = members
    }

    @usableFromInline
    var isDisposed: Bool { lock.withLock { members == nil } }

    /// Adds `member`, or disposes it at once when this is already disposed.
    @usableFromInline
    func add(_ member: Disposable) {
        // Nil when there were no members to append to: this was disposed.
        let added: Void? = lock.withLock { members?.append(member) }
        if added == nil { member.dispose() }
    }

    @usableFromInline
    func dispose() {
        lock.withLock { members.take() }?.forEach { $0.dispose() }
    }
}

/// Holds at most one disposable; replacing it disposes the previous one.
// Safe to share: `current` and `disposed` are touched only under `lock`.
final class SerialDisposable: Disposable, @unchecked Sendable {
    private let lock = SpinLock()
    private var current: Disposable?
    private var disposed = false

    var isDisposed: Bool { lock.withLock { disposed } }

    /// Replaces the held disposable, disposing the old one (or the new one, if disposed).
    func replace(with disposable: Disposable?) {
        let old: Disposable? = lock.withLock {
            if disposed { return disposable }
            defer { current = disposable }
            return current
        }
        old?.dispose()
    }

    func dispose() {
        let old = lock.withLock {
            disposed = true
            return current.take()
        }
        old?.dispose()
    }
}
