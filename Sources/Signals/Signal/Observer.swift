import Dispatch
import Synchronization

/// One registration on a `SignalCore`, and the ``Disposable`` handed out for it.
///
/// Delivery calls `receive`/`complete` through the class, so an operator's link
/// (`ForwardObserver`) costs no reference counting per event; a caller's closures live
/// in a `ClosureObserver`, which frees them as soon as it is disposed.
// Safe to share: `ending` and `lending` are atomic; `registeredCore` is set under the core's
// lock at registration, then touched only by whoever claimed disposal.
@usableFromInline
class Observer<Value>: Disposable, @unchecked Sendable {
    /// The core this observer is registered on, not retained: touched only by whoever
    /// claims disposal, and alive until then. While the observer is listed, its core is
    /// held by an owner or by itself (`SignalCore.retainsItself`), and the observer leaves
    /// the list only in `remove` (which the disposer calls) or when the core completes,
    /// which then lends the core to a disposer on its way (`lendCore(_:)`). A late
    /// observer is never listed, and its catch-up does the same.
    ///
    /// Not retaining it saves two of the eight atomic read-modify-writes a subscribe +
    /// dispose did (scenario C in `Docs/Benchmarks.md`).
    @usableFromInline @exclusivity(unchecked) final var registeredCore: Unmanaged<SignalCore<Value>>?
    /// Why the observer ended, set once: 0 while live, `Observer.disposedByCaller` when a
    /// caller disposed it, `Observer.completedBySignal` when its signal completed. One
    /// atomic, so nobody can see it ended without seeing why.
    @usableFromInline let ending = Atomic<UInt8>(0)
    @usableFromInline static var disposedByCaller: UInt8 { 1 }
    @usableFromInline static var completedBySignal: UInt8 { 2 }
    /// For an observer a caller disposed after its core stopped listing it: 0 until settled,
    /// `Observer.removalDone` when the caller's `remove` was done with the core first,
    /// `Observer.coreLent` when the core was lent first (retained for the caller, who
    /// releases it). See `lendCore(_:)`.
    @usableFromInline let lending = Atomic<UInt8>(0)
    @usableFromInline static var removalDone: UInt8 { 1 }
    @usableFromInline static var coreLent: UInt8 { 2 }
    /// Set before registration for an observer of a property that acts only on `changed`:
    /// the property does not send it the `invalidate` leading each change (see
    /// `SignalCore.send(_:)` for pairs).
    @usableFromInline @exclusivity(unchecked) final var skipsLeadOfPair = false
    /// Whether this is a `ForwardObserver`, whose closure a delivery calls directly.
    @usableFromInline final let forwards: Bool
    /// Whether this is a `PairForwardObserver`, whose `onPair` a pair's delivery calls
    /// directly (`SignalCore.emitPair`). In the padding after `forwards`: no byte more.
    @usableFromInline final let takesPairs: Bool

    @inlinable
    init(forwards: Bool = false, takesPairs: Bool = false) {
        self.forwards = forwards
        self.takesPairs = takesPairs
    }

    /// Records the core this observer is now registered on; called once, with the core's
    /// lock held.
    @inlinable
    final func register(on core: SignalCore<Value>) {
        assert(registeredCore == nil, "an observer is registered once")
        registeredCore = Unmanaged.passUnretained(core)
    }

    /// Ends this observer, registered on `core`, for `core`'s completion: completes and
    /// clears it, unless a caller disposed it first; that caller may still be on its way
    /// into `remove`, so it is lent the core (`lendCore(_:)`). Called by the completion or
    /// a late observer's catch-up, while it runs on `core`.
    @inlinable
    final func complete(registeredOn core: SignalCore<Value>) {
        if claimDisposal(completing: true) {
            registeredCore = nil
            complete()
            clear()
        } else {
            lendCore(core)
        }
    }

    /// Keeps `core` alive for the caller that disposed this observer after `core` stopped
    /// listing it (it completed, or this observer arrived late): that caller may not have
    /// reached `remove` yet, and nothing else may be holding the core by then. Called by
    /// the completion or catch-up that failed to claim this observer, while it runs on
    /// `core`. Rare, so its atomics cost the common path nothing.
    @inlinable
    final func lendCore(_ core: SignalCore<Value>) {
        guard isDisposedByCaller, lending.load(ordering: .acquiring) == 0 else { return }
        let lent = Unmanaged.passRetained(core)
        if !lending.compareExchange(expected: 0, desired: Observer.coreLent, ordering: .acquiringAndReleasing)
            .exchanged
        {
            // The caller was done with the core meanwhile.
            lent.release()
        }
    }

    /// Settles the loan of `lendCore(_:)` once `remove` found this observer unlisted:
    /// releases the core if it was lent, or tells the lender it need not be.
    @inlinable
    final func settleLentCore(_ core: Unmanaged<SignalCore<Value>>) {
        if !lending.compareExchange(expected: 0, desired: Observer.removalDone, ordering: .acquiringAndReleasing)
            .exchanged
        {
            core.release()
        }
    }

    /// Handles a value; called only by the thread delivering the signal.
    @usableFromInline
    func receive(_ value: Value) {}

    /// Handles the two events of a property's change, `lead` (its `invalidate`) then
    /// `value`, delivered together (see `SignalCore.emitPair`).
    @usableFromInline
    func receive(_ lead: Value, then value: Value) {
        receive(lead)
        if !isDisposed { receive(value) }
    }

    /// Handles the completion; called once, only by the thread delivering the signal.
    @usableFromInline
    func complete() {}

    /// Frees what the observer holds. Only called when no thread can be delivering to it.
    @usableFromInline
    func clear() {}

    @inlinable
    final var isDisposed: Bool { ending.load(ordering: .acquiring) != 0 }

    /// Whether a caller disposed the observer (rather than its signal completing).
    @inlinable
    final var isDisposedByCaller: Bool { ending.load(ordering: .acquiring) == Observer.disposedByCaller }

    /// Marks the observer disposed, by the signal's completion when `completing`; true for
    /// the one caller that did so first.
    @inlinable
    final func claimDisposal(completing: Bool = false) -> Bool {
        ending.compareExchange(
            expected: 0, desired: completing ? Observer.completedBySignal : Observer.disposedByCaller,
            ordering: .acquiringAndReleasing
        ).exchanged
    }

    @inlinable
    final func dispose() {
        guard claimDisposal() else { return }
        guard let core = registeredCore else {
            clear()
            return
        }
        registeredCore = nil
        // The core is alive while `remove` runs (see `registeredCore`), which lets nothing
        // go on it; whatever may free it happens here, after.
        switch core._withUnsafeGuaranteedRef({ $0.remove(self) }) {
        case .clearObserver:
            clear()
        case .release(let withOwnRetain):
            // Not a loop over a range: in a debug build that instantiates generic metadata,
            // an allocation the benchmarks' thresholds count.
            core.release()
            if withOwnRetain { core.release() }
        case .settleLoanAndRelease:
            settleLentCore(core)
            core.release()
        }
    }
}

/// An observer running a caller's closures, freed when it is disposed or completes.
///
/// The closures are stored in the observer itself (one allocation per subscription) and
/// called through `ClosureObserver.call(_:_:)`, which takes the stored closure `inout`: a
/// closure read from a `var` is otherwise copied (its context retained and released)
/// around each call, because the call could replace it; under an `inout` access nothing
/// else may touch it, so the call borrows it. That retain and release were most of the
/// cost of a fan-out. `clear()` sets the closures to nil, which frees them at once.
// Safe to share: the closures are called only by the delivering thread, one delivery at a
// time, and cleared only when none can be delivering to this observer.
@usableFromInline
final class ClosureObserver<Value>: Observer<Value>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var onValue: ((Value) -> Void)?
    @usableFromInline @exclusivity(unchecked) var onCompleted: (() -> Void)?

    @inlinable
    init(onValue: ((Value) -> Void)?, onCompleted: (() -> Void)?) {
        self.onValue = onValue
        self.onCompleted = onCompleted
    }

    /// Calls `handler` with `argument`, borrowing it: the exclusive access means the call
    /// cannot replace it, so its context is not retained around the call.
    @inlinable @inline(__always)
    static func call<Argument>(_ handler: inout ((Argument) -> Void)?, _ argument: Argument) {
        handler?(argument)
    }

    /// Calls `handler`, borrowing it (see `call(_:_:)`).
    @inlinable @inline(__always)
    static func call(_ handler: inout (() -> Void)?) {
        handler?()
    }

    @usableFromInline
    override func receive(_ value: Value) {
        Self.call(&onValue, value)
    }

    @usableFromInline
    override func complete() {
        Self.call(&onCompleted)
    }

    @usableFromInline
    override func clear() {
        onValue = nil
        onCompleted = nil
    }
}

/// The link from a source to an operator: fixed closures, freed with the link, which
/// happens as soon as the operator stops listening (the source drops it then). Not final
/// only for `PairForwardObserver`, which adds the taking of a pair in one call.
// Safe to share: its closures are `let`s, called only by the delivering thread.
@usableFromInline
class ForwardObserver<Value>: Observer<Value>, @unchecked Sendable {
    @usableFromInline let onValue: (Value) -> Void
    @usableFromInline let onCompleted: () -> Void

    @inlinable
    init(onValue: @escaping (Value) -> Void, onCompleted: @escaping () -> Void, takesPairs: Bool = false) {
        self.onValue = onValue
        self.onCompleted = onCompleted
        super.init(forwards: true, takesPairs: takesPairs)
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

/// An observer whose closure runs on the main actor.
///
/// A value received on the main queue while nothing is queued for this observer runs at
/// once; any other is queued with `DispatchQueue.main.async`, which runs blocks in FIFO
/// order. `queued` counts the deliveries queued or running, so a value received on the
/// main queue never overtakes one queued before it, and a value sent from inside the
/// closure waits for the closure to return.
///
/// `extract` picks what the closure gets from an event (a property's change carries its
/// value; its other steps are dropped before any hop to the main queue).
///
/// Disposing drops the values still queued; completing does not: they are delivered, and
/// the closure is let go behind them.
@usableFromInline
final class MainActorObserver<Value, Payload: Sendable>: Observer<Value>, @unchecked Sendable {
    // Safe to share: `action` is guarded by `lock`, `queued` is atomic, and the core
    // serializes calls of `receive`/`complete`.
    private let lock = SpinLock()
    private var action: (@MainActor (Payload) -> Void)?
    private let extract: (Value) -> Payload?
    private let queued = Atomic<Int>(0)

    init(extract: @escaping (Value) -> Payload?, _ action: @escaping @MainActor (Payload) -> Void) {
        self.extract = extract
        self.action = action
    }

    @usableFromInline
    override func receive(_ event: Value) {
        guard let value = extract(event) else { return }
        if MainQueue.isCurrent,
            queued.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
        {
            run(value)
        } else {
            queued.add(1, ordering: .acquiringAndReleasing)
            DispatchQueue.main.async { self.run(value) }
        }
    }

    /// Runs the closure with `value`; called on the main queue only.
    private func run(_ value: Payload) {
        defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
        // Values queued before the signal completed still arrive; a caller's dispose drops them.
        guard !isDisposedByCaller, let action = lock.withLock({ action }) else { return }
        MainActor.assumeIsolated { action(value) }
    }

    @usableFromInline
    override func clear() {
        // After completion, values may still be queued: the closure goes behind them.
        if !isDisposedByCaller, queued.load(ordering: .acquiring) > 0 {
            DispatchQueue.main.async { self.releaseAction() }
        } else {
            releaseAction()
        }
    }

    private func releaseAction() {
        withExtendedLifetime(lock.withLock { action.take() }) {}
    }
}

/// Tells whether the calling code runs on the main queue, which is the main actor's
/// executor. `Thread.isMainThread` does not say so on Linux: after `dispatchMain()` or in
/// an async `main`, the main queue is drained by a worker thread.
enum MainQueue {
    private static let key: MainQueueKey = {
        let key = MainQueueKey()
        DispatchQueue.main.setSpecific(key: key.key, value: 1)
        return key
    }()

    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key.key) == 1
    }
}

/// The dispatch key that marks the main queue.
// Safe to share: the key is set once, never mutated, and Dispatch reads it thread-safely.
private final class MainQueueKey: @unchecked Sendable {
    let key = DispatchSpecificKey<UInt8>()
}
