/// The machinery behind every ``Signal`` and ``Property``: an observer list, a serial
/// delivery queue, and the little state a few operators keep on the core.
///
/// ## Jobs, and where they live
///
/// - Delivery queue (`Delivery.swift`): the lock, whether a delivery is in progress, the
///   work queued behind it, observers retired during it. Cores of one `map`/`filter`/
///   `compactMap`/`scan` chain share one.
/// - Observer list and lifetime (`SignalCore+Observers.swift`): `add`, `remove`, owners,
///   upstream subscriptions, the work that starts at the first observer, detaching.
/// - Sending and delivering (`SignalCore+Sending.swift`): every sender goes through
///   `enterDeliveryLocked(releasing:orQueue:)`, the one place that decides whether to
///   deliver now or queue; `emit` and `emitCompleted` deliver from inside a delivery, to
///   the snapshot.
/// - Property-only state (`SignalCore+Property.swift`): the committed value, and the
///   `invalidate`/`changed` pairs a property sends.
/// - Replay (`ReplayBuffer.swift`): the values `share(replay:)` hands to late observers.
///
/// ## Ownership (who retains whom)
///
/// ```text
/// Signal / Property ──▶ SignalCore ◀── Signal.Input
///                        │  │   ▲ ▲
///           observers,   │  │   │ └─ itself, while it has observers and no owner
///           snapshot     ▼  │   ┊ core (not retained; nil once disposed or completed)
///                     Observer ◀── the caller (the Disposable `observe` returns)
///                        │  │
///                        │  └─ ClosureObserver: the caller's closures, inline (cleared on
///                        │     dispose/completion)
///                        └─ ForwardObserver: an operator's closures ──▶ the output core
///                        SignalCore ──upstreams──▶ the ForwardObservers it registered on
///                                                   its sources (disposed on detach)
///                        SignalCore ──delivery──▶ Delivery ──pending──▶ queued work
/// ```
///
/// An observer does not retain its core. A core with observers is held by its owners, or
/// by itself when it has none (`retainsItself`, taken and let go under the lock as
/// observers and owners come and go), so a listed observer's core is alive: a chain is
/// kept by its observers as it always was. An observer leaves the list only by `remove`,
/// which its disposer calls, or by the completion, which lends the core to a disposer
/// that claimed the observer but has not reached `remove` yet (`Observer.lendCore(_:)`);
/// a late observer, never listed, is lent the core by its catch-up the same way. `remove`
/// runs on a core its caller does not own and never releases it; it returns what the
/// caller lets go of after (`Removal`).
///
/// The cycle source core → forward observer → output core → upstreams is broken when the
/// output detaches (nobody owns or observes it) or completes. A wrapper (``Signal``,
/// ``Property``) counts as an owner (`Lifecycle.active(owners:)`); `Signal.Input` does
/// not: freeing it completes the core.
///
/// ## Locks
///
/// - `delivery.lock` (a `SpinLock`, one per `Delivery`, so shared by a chain's cores)
///   guards `observers`, `lifecycle`, `retainsItself`, `upstreams`, `start`, `committed`,
///   `commitCount`, and the delivery's `isDelivering`, `pending`, `retired` and `version`.
///   It is held for a few instructions only: no user code runs under it, no other lock is
///   taken under it, and what a section lets go of (an old snapshot, a replaced value,
///   closures) is released after unlocking, since releasing can run user code (a `deinit`).
///   "After" means before the next `lock()` too: a debug build frees a local at the end of
///   its scope, so a scope that locks again frees its locals under the lock (each turn of
///   `Delivery.leaveWithWork` is a call of its own for that reason).
/// - `Observer.ending`, an atomic, decides once who ends an observer: a caller's
///   `dispose()` or the core's completion. `Observer.lending`, another, settles once
///   whether a completion that lost that race lent the core to the caller.
/// - Touched only by the delivering thread, without a lock: `snapshot` and what is derived
///   from it, `seenDeliveryVersion`, `deliveredCompletion`, `Delivery.versionAtDelivery`,
///   the replay buffer's values, and operators' `StateCell`s. (`remove` also drops the
///   snapshot, under the lock, when no delivery is in progress, so a disposed observer is
///   freed at once.)
///
/// ## Invariants
///
/// 1. Deliveries of one `Delivery` never overlap, and run in the order they were sent: the
///    first sender delivers; one that finds a delivery in progress (another thread's, or
///    its own from inside an observer) queues its work and returns; the delivering thread
///    runs the queue before it leaves. Nothing blocks on a delivery.
/// 2. A value goes to the observers registered when it was sent (the snapshot taken then),
///    except those disposed before its turn; an observer registered later never gets it.
///    A core that delivers in line (`map`, ...) takes its snapshot when its source's
///    delivery of the value begins, so its observers are those of that moment: one
///    registered while the value waited in the source's queue gets it.
/// 3. `lifecycle` only moves forward (see `Lifecycle`): once terminating, sends are
///    dropped; once detached, the upstream subscriptions are gone for good; once
///    terminated, the core has no observers and never gets one.
/// 4. Completion is delivered once, to every observer registered before it was delivered;
///    each observer then loses its `core` and is cleared.
/// 5. An observer is cleared (its closures freed) only when no thread can be delivering to
///    it: at once when disposed outside a delivery, else when the delivery ends.
///
/// ## Why it is shaped so
///
/// The measurements behind these choices are in `Docs/Benchmarks.md`.
///
/// - One lock per value for a chain: a core made by `map`, `filter`, `compactMap` or `scan`
///   shares its source's `Delivery` and delivers in line, refreshing its snapshot only when
///   the delivery's observer version moved. Each operator used to cost two lock round
///   trips (entering and leaving a delivery of its own).
/// - No reference counting per observer per value: `emit` reads the snapshot through a
///   buffer pointer without retaining the array or its observers, calls observers as
///   methods, and a `ClosureObserver` calls its closures borrowed (see its comment); a
///   closure read from a `var` and called is otherwise retained and released around the
///   call, which was most of the cost of a fan-out.
/// - One allocation per subscription: the observer is the ``Disposable`` handed back and
///   holds the closures inline; `add` consumes it and hands it back without a retain.
/// - A property sends a change without its `invalidate` (which only derived properties
///   need, for glitch-free updates) when no observer takes it, and its caller says whether
///   an event carries a value, instead of the core asking a closure made in unspecialized
///   code (which looked up `Change`'s generic metadata twice per change).
/// - A root's change reaches a combination that is its first observer, and the only one
///   that takes the pair's lead, as one call (`emitPair`, `Observer.receive(_:then:)`):
///   the combination then settles it in the section that starts its own delivery, one
///   lock round trip where the two events took three, two when its inputs are compared
///   (`Equatable`: committed only once `==`, user code, says it changed, after the lock).
///   Only the first observer, so that no observer sees the change before its lead.
/// - A combination whose change is known only after that section (compared inputs, a
///   mapped pair, a list: user code decides it, after the lock) commits it in the section
///   that ends its delivery (`LateCommit`), two round trips where a commit of its own made
///   three. An observer registering meanwhile starts from the committed value and catches
///   up with the change as it is committed; one registering from inside the delivery, once
///   the change is known, starts from the change itself, as it did when it was committed
///   first (the delivering thread is recorded for that; only that thread reads the change
///   before it is committed).
/// - The snapshot is replaced through one inlinable method (`exchangeSnapshot`): a
///   `didSet` on a generic class is not specialized, and asked for generic metadata on
///   every change of observers.
/// - A subscribe + dispose stays short: `remove` keeps its common case (no delivery, no
///   snapshot, the core still in use) in line and the rest out of line, so that case
///   releases no empty optionals; `add`'s short path is taken by an active core only, one
///   compare of `lifecycle`'s case rather than a switch (26 instructions of 719).
/// - An observer does not retain its core (see "Ownership"): a subscription to a core
///   someone owns costs no retain and release of the core, two of the eight atomic
///   read-modify-writes a subscribe + dispose did, which were most of its time. The
///   races this opens (a dispose on one thread, the completion and the last release on
///   another) are closed by the core's own retain and by the completion's loan, which
///   cost atomics only when an observer is disposed while its core completes.
/// - `@exclusivity(unchecked)` on state touched only under the lock or by the delivering
///   thread, and an `@inlinable` core, so that clients specialize it for their types.
/// - A spin lock (`SpinLock`, yielding after 32 spins), not a futex: its sections are a few
///   instructions and run no user code, and it measured as fast or faster than glibc's
///   mutex everywhere, 16 threads on 2 cores included. Under contention a sender that
///   finds a delivery in progress queues its value (one allocation) and returns, rather
///   than waiting its turn.
/// - One way into a delivery (`enterDeliveryLocked`), always inlined, that only decides:
///   the sender runs its work itself. A generic work closure holding an operator's closure
///   needed a reabstraction thunk, an allocation per value, so a queued step is built only
///   when it is queued; and a non-escaping work closure was not inlined into `serialize`,
///   which cost scenario D about 8% in wall time for the same instruction count.
// Safe to share: `observers`, `lifecycle` and the other fields listed under "Locks" are
// touched only under the delivery's lock; the snapshot only by the one delivering thread.
@usableFromInline
final class SignalCore<Value>: SnapshotHolder, @unchecked Sendable {
    /// The delivery this core takes part in: its own, or its source's (see `Delivery`).
    @usableFromInline let delivery: Delivery

    // MARK: Observer list and lifetime (guarded by the delivery's lock)

    @usableFromInline @exclusivity(unchecked) var observers: [Observer<Value>] = []
    @usableFromInline @exclusivity(unchecked) var lifecycle = Lifecycle.active(owners: 0)
    /// Subscriptions to sources, disposed when the core detaches or completes.
    @usableFromInline @exclusivity(unchecked) var upstreams: ContiguousArray<Disposable> = []
    /// Work to start when the first observer arrives, run once: an operator's
    /// subscriptions to its sources (`onStart(_:)`), or the work of `Signal.init(_:)`.
    /// Let go unrun when the core detaches or completes first.
    @usableFromInline @exclusivity(unchecked) var start: (() -> Void)?
    /// Whether the core holds a retain of itself, which it does while it has observers
    /// and no owner (`retainItselfIfUnowned()`): an observer does not retain its core, so
    /// this keeps a listed observer's core alive until the observer leaves the list.
    @usableFromInline @exclusivity(unchecked) var retainsItself = false
    /// Bumped whenever `observers` changes, so an unchanged list is not copied per delivery.
    @usableFromInline @exclusivity(unchecked) var observersVersion = 0
    /// Observers added during a delivery whose catch-up (initial value, replay) is still
    /// queued: listed, but left out of snapshots until it runs, so that a snapshot taken
    /// later in that delivery (a core that delivers in line refreshes its own then) cannot
    /// give one the value in flight as well as its catch-up.
    @usableFromInline @exclusivity(unchecked) var joining: [Observer<Value>] = []

    // MARK: Snapshot (touched only by the delivering thread)

    /// The observers a delivery goes to; replaced only with `exchangeSnapshot(_:)`.
    @usableFromInline @exclusivity(unchecked) var snapshot: [Observer<Value>] = []
    /// The elements of `snapshot`, read by `emit` without retaining the array or its
    /// observers: `snapshot` owns them, and its storage is never changed in place, only
    /// replaced (which sets this again).
    @usableFromInline @exclusivity(unchecked) var snapshotElements = UnsafeBufferPointer<Observer<Value>>(
        start: nil, count: 0)
    /// Whether an observer in `snapshot` acts on the first event of a pair (a property's
    /// `invalidate`); when none does, the pair is delivered as its second event alone.
    @usableFromInline @exclusivity(unchecked) var snapshotTakesLead = false
    /// Whether the first observer of `snapshot` is the only one that takes the lead: it then
    /// gets a pair as one call (`Observer.receive(_:then:)`), in the same order as two.
    @usableFromInline @exclusivity(unchecked) var snapshotPairsHead = false
    /// The `observersVersion` the snapshot was taken at; -1 when it must be taken again.
    @usableFromInline @exclusivity(unchecked) var snapshotVersion = -1
    /// The delivery's `versionAtDelivery` this core last refreshed its snapshot at (for
    /// cores that deliver in line).
    @usableFromInline @exclusivity(unchecked) var seenDeliveryVersion = -1
    /// Whether the completion was delivered: work queued before it then runs with no
    /// snapshot, rather than bringing back the observers of the moment it was queued.
    @usableFromInline @exclusivity(unchecked) var deliveredCompletion = false

    // MARK: Operator and property state

    /// A value handed to each new observer before anything else (`prefix(value:)`).
    @usableFromInline @exclusivity(unchecked) var prefix: Value?
    /// The last values delivered, handed to each new observer before anything sent after it
    /// arrived (`share(replay:)`); set once, before the core has observers.
    @usableFromInline @exclusivity(unchecked) var replay: ReplayBuffer<Value>?
    /// The last committed value event (a property's current value, as delivered in order).
    /// Guarded by the delivery's lock.
    @usableFromInline @exclusivity(unchecked) var committed: Value?
    /// How many values were committed; guarded by the delivery's lock.
    @usableFromInline @exclusivity(unchecked) var commitCount = 0
    /// A combination's output: the change its delivery commits as it ends (see `LateCommit`).
    /// Set once, before the core has observers.
    @usableFromInline @exclusivity(unchecked) var lateCommit: LateCommit<Value>?

    /// A core with a delivery of its own.
    @inlinable
    init() {
        delivery = Delivery()
    }

    /// A core that delivers inside `source`'s deliveries: it must only be sent to from an
    /// observer of `source` (with `sendInDelivery`), and completed from there too.
    @inlinable
    init<Source>(sharingDeliveryOf source: SignalCore<Source>) {
        delivery = source.delivery
    }

    /// Runs `body` holding the lock that `send(_:)` holds while it stores state.
    @inlinable
    func withLock<Result>(_ body: () -> Result) -> Result {
        delivery.lock.withLock(body)
    }
}

/// Where a core is in its life: one value, guarded by the delivery's lock, that only
/// moves forward.
///
/// ```text
/// active(owners) ──terminate──▶ terminating(owners) ──emitCompleted──▶ terminated
///      │                               │                                  ▲
///   detach                          detach                                │
///      ▼                               ▼                                  │
/// detached(terminating: false) ──▶ detached(terminating: true) ──emitCompleted
/// ```
///
/// `emitCompleted` (an operator completing its output from inside a delivery) may also
/// end any state but `terminated` at once. A core detaches when it has no owner and no
/// observer; detaching and terminating are independent, so a detached core still tells
/// whether a completion is queued. `owners` counts the wrappers (``Signal``,
/// ``Property``) that refer to the core; it no longer matters once detached.
@usableFromInline
enum Lifecycle: Equatable, Sendable {
    /// Sends are delivered; `owners` wrappers refer to the core.
    case active(owners: Int)
    /// A completion was sent and waits for its turn; later sends are dropped.
    case terminating(owners: Int)
    /// Nobody owns or observes the core: its upstream subscriptions and unstarted work are
    /// let go, and serialized work is dropped. `terminating` as in the cases above.
    case detached(terminating: Bool)
    /// The completion was delivered; observers and upstreams are released. Final.
    case terminated

    /// Whether a completion was sent (queued or delivered): sends are dropped.
    @inlinable
    var isTerminating: Bool {
        switch self {
        case .active, .detached(terminating: false): false
        case .terminating, .detached(terminating: true), .terminated: true
        }
    }

    /// Whether sends are delivered and wrappers counted: neither terminating nor detached.
    @inlinable
    var isActive: Bool {
        if case .active = self { true } else { false }
    }

    /// Whether the upstream subscriptions were let go (detached or terminated).
    @inlinable
    var isDetached: Bool {
        switch self {
        case .active, .terminating: false
        case .detached, .terminated: true
        }
    }

    /// The wrappers that refer to the core, while that matters (not detached).
    @inlinable
    var owners: Int {
        switch self {
        case .active(let owners), .terminating(let owners): owners
        case .detached, .terminated: 0
        }
    }

    /// Counts a wrapper more (`by: 1`) or less (`by: -1`); no effect once detached.
    @inlinable
    mutating func changeOwners(by change: Int) {
        switch self {
        case .active(let owners): self = .active(owners: owners + change)
        case .terminating(let owners): self = .terminating(owners: owners + change)
        case .detached, .terminated: break
        }
    }

    /// Starts terminating; false when a completion was already sent.
    @inlinable
    mutating func terminate() -> Bool {
        switch self {
        case .active(let owners): self = .terminating(owners: owners)
        case .detached(terminating: false): self = .detached(terminating: true)
        case .terminating, .detached(terminating: true), .terminated: return false
        }
        return true
    }

    /// Detaches; false when already detached (or terminated).
    @inlinable
    mutating func detach() -> Bool {
        switch self {
        case .active: self = .detached(terminating: false)
        case .terminating: self = .detached(terminating: true)
        case .detached, .terminated: return false
        }
        return true
    }

    /// Ends; false when already terminated.
    @inlinable
    mutating func finish() -> Bool {
        guard self != .terminated else { return false }
        self = .terminated
        return true
    }
}
