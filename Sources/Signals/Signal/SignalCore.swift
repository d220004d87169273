/// The serial delivery queue one or more cores share: a lock, whether a delivery is in
/// progress, and the work waiting for it.
///
/// A core made by `map`, `filter`, `compactMap` or `scan` shares its source's delivery:
/// it is only ever sent to from inside that delivery, so it delivers in line, with no
/// lock or queue of its own, and a chain of such operators costs one lock per value, at
/// its source, like a hand-written chain of closures.
// Safe to share: every field is touched only under `lock`, except `versionAtDelivery`,
// which only the delivering thread touches.
@usableFromInline
final class Delivery: @unchecked Sendable {
    /// An observer removed during a delivery, cleared when the delivery ends, and the core
    /// whose snapshot still holds it.
    @usableFromInline
    struct Retired {
        @usableFromInline let observer: any ClearableObserver
        @usableFromInline let core: any SnapshotHolder

        @inlinable
        init(observer: any ClearableObserver, core: any SnapshotHolder) {
            self.observer = observer
            self.core = core
        }
    }

    @usableFromInline let lock = SpinLock()
    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var isDelivering = false
    @usableFromInline @exclusivity(unchecked) var pending: ContiguousArray<() -> Void> = []
    @usableFromInline @exclusivity(unchecked) var pendingHead = 0
    @usableFromInline @exclusivity(unchecked) var retired: ContiguousArray<Retired> = []
    /// Bumped whenever the observers of any core of this delivery change.
    @usableFromInline @exclusivity(unchecked) var version = 0
    // Touched only by the delivering thread.
    /// `version` when the delivery (or its current piece of queued work) started; a core
    /// delivering in line refreshes its snapshot when it has not seen this version yet.
    @usableFromInline @exclusivity(unchecked) var versionAtDelivery = 0

    @inlinable
    init() {}

    /// Starts a delivery. Called with the lock held, when none is in progress.
    @inlinable
    func begin() {
        isDelivering = true
        versionAtDelivery = version
    }

    /// Runs queued work until none is left, then ends the delivery. Observers removed
    /// along the way are cleared between work items, and processed work is let go in
    /// chunks, so a long burst holds on to nothing it has finished with.
    @inlinable
    func leave() {
        while true {
            lock.lock()
            if pendingHead == 0, pending.isEmpty, retired.isEmpty {
                // The common case: nothing was queued or removed during the delivery.
                isDelivering = false
                lock.unlock()
                return
            }
            var finishedWork: ContiguousArray<() -> Void> = []
            if pendingHead >= 64, pendingHead * 2 >= pending.count {
                var rest = ContiguousArray(pending[pendingHead...])
                swap(&rest, &pending)
                swap(&finishedWork, &rest)
                pendingHead = 0
            }
            var removed: ContiguousArray<Retired> = []
            swap(&removed, &retired)
            // Observers removed during the delivery are still in their cores' snapshots:
            // drop those, so they are freed now, not at the next delivery.
            let snapshots = removed.map { $0.core.dropSnapshot() }
            if pendingHead < pending.count {
                let next = pending[pendingHead]
                pendingHead += 1
                versionAtDelivery = version
                lock.unlock()
                for entry in removed { entry.observer.clear() }
                withExtendedLifetime((removed, snapshots, finishedWork)) {}
                next()
                continue
            }
            isDelivering = false
            var done = ContiguousArray<() -> Void>()
            swap(&done, &pending)
            pendingHead = 0
            lock.unlock()
            for entry in removed { entry.observer.clear() }
            withExtendedLifetime((done, removed, snapshots, finishedWork)) {}
            return
        }
    }
}

/// An observer that can be cleared without knowing its value type.
@usableFromInline
protocol ClearableObserver: AnyObject {
    func clear()
}

extension Observer: ClearableObserver {}

/// A core whose snapshot can be dropped without knowing its value type.
@usableFromInline
protocol SnapshotHolder: AnyObject {
    /// Empties the snapshot and returns what it held, to be released after the lock.
    /// Called with the delivery's lock held.
    func dropSnapshot() -> Any
}

/// What a core lets go of when it detaches: its subscriptions to sources, and the work
/// that was to subscribe it, if it never started.
@usableFromInline
struct Detachment {
    @usableFromInline let upstreams: ContiguousArray<Disposable>
    @usableFromInline let unstarted: (() -> Void)?

    @inlinable
    init(upstreams: ContiguousArray<Disposable>, unstarted: (() -> Void)?) {
        self.upstreams = upstreams
        self.unstarted = unstarted
    }

    /// Disposes the subscriptions; the unstarted work is released with `self`.
    @inlinable
    func dispose() {
        upstreams.forEach { $0.dispose() }
    }
}

/// The machinery behind every ``Signal``: an observer list and a serial delivery queue.
///
/// Deliveries never overlap: the first sender delivers; a sender that finds a delivery in
/// progress (another thread's, or its own when sending from inside an observer) queues
/// its work, and the delivering thread runs it next, in FIFO order. Nothing blocks on a
/// delivery and no lock is held while user code runs. The queue, its lock and the
/// delivering flag live in a `Delivery`, which cores of one operator chain share.
// Safe to share: the observer list and queue are touched only under the delivery's lock;
// the snapshot only by the one delivering thread.
@usableFromInline
final class SignalCore<Value>: SnapshotHolder, @unchecked Sendable {
    /// The delivery this core takes part in: its own, or its source's (see `Delivery`).
    @usableFromInline let delivery: Delivery
    // Guarded by the delivery's lock.
    @usableFromInline @exclusivity(unchecked) var observers: ContiguousArray<Observer<Value>> = []
    @usableFromInline @exclusivity(unchecked) var isTerminating = false
    @usableFromInline @exclusivity(unchecked) var ownerCount = 0
    @usableFromInline @exclusivity(unchecked) var isDetached = false
    @usableFromInline @exclusivity(unchecked) var upstreams: ContiguousArray<Disposable> = []
    // Touched only by the delivering thread.
    /// The observers a delivery goes to; replaced only with `exchangeSnapshot(_:)`.
    @usableFromInline @exclusivity(unchecked) var snapshot: ContiguousArray<Observer<Value>> = []
    /// Whether an observer in `snapshot` acts on the first event of a pair (a property's
    /// `invalidate`); when none does, the pair is delivered as its second event alone.
    @usableFromInline @exclusivity(unchecked) var snapshotTakesLead = false

    /// Swaps `other` and `snapshot`, and brings what is derived from the snapshot up to date.
    @inlinable
    func exchangeSnapshot(_ other: inout ContiguousArray<Observer<Value>>) {
        swap(&other, &snapshot)
        let elements = snapshot.withUnsafeBufferPointer { $0 }
        snapshotElements = elements
        var takesLead = false
        for index in elements.indices where !elements[index].skipsLeadOfPair {
            takesLead = true
            break
        }
        snapshotTakesLead = takesLead
    }
    /// The elements of `snapshot`, read by `emit` without retaining the array or its
    /// observers: `snapshot` owns them, and its storage is never changed in place, only
    /// replaced (which sets this again).
    @usableFromInline @exclusivity(unchecked) var snapshotElements = UnsafeBufferPointer<Observer<Value>>(
        start: nil, count: 0)
    /// Bumped whenever `observers` changes, so an unchanged list is not copied per delivery.
    @usableFromInline @exclusivity(unchecked) var observersVersion = 0
    @usableFromInline @exclusivity(unchecked) var snapshotVersion = -1
    /// The delivery's `versionAtDelivery` this core last refreshed its snapshot at (for
    /// cores that deliver in line).
    @usableFromInline @exclusivity(unchecked) var seenDeliveryVersion = -1
    @usableFromInline @exclusivity(unchecked) var isFinished = false

    /// A value handed to each new observer before anything else (`prefix(value:)`).
    @usableFromInline @exclusivity(unchecked) var prefix: Value?
    /// The last values delivered, handed to each new observer before anything sent after it
    /// arrived (`share(replay:)`); set once, before the core has observers.
    @usableFromInline @exclusivity(unchecked) var replay: ReplayBuffer<Value>?
    /// The last committed value event (a property's current value, as delivered in order).
    @usableFromInline @exclusivity(unchecked) var committed: Value?
    @usableFromInline @exclusivity(unchecked) var commitCount = 0
    /// Work to start when the first observer arrives, run once: an operator's
    /// subscriptions to its sources (`onStart(_:)`), or the work of `Signal.init(_:)`.
    /// Let go unrun when the core detaches or completes first.
    @usableFromInline @exclusivity(unchecked) var start: (() -> Void)?

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

    @usableFromInline
    func dropSnapshot() -> Any {
        var dropped: ContiguousArray<Observer<Value>> = []
        exchangeSnapshot(&dropped)
        snapshotVersion = -1
        seenDeliveryVersion = -1
        return dropped
    }

    // MARK: - Registration

    /// Registers `observer`. `initial` (or else the prefix, unless `skippingPrefix`) runs
    /// for this observer alone, in delivery order, before any value sent after this call;
    /// so do the values of a replay buffer, after it.
    @inlinable @discardableResult
    func add(
        _ observer: Observer<Value>,
        initial: (() -> Value)? = nil,
        skippingPrefix: Bool = false
    ) -> Observer<Value> {
        let initial = initial ?? (skippingPrefix ? nil : prefix.map { value in { value } })
        // `replay` is read where it is used, not held: set once before the core had
        // observers, it never changes, and the common path (no replay) then retains nothing.
        delivery.lock.lock()
        if isTerminating {
            if let replay = self.replay, delivery.isDelivering {
                // The last values may still be on their way: replay them once they are in.
                observer.core = self
                delivery.pending.append {
                    replay.replay(to: observer)
                    if observer.claimDisposal(completing: true) {
                        observer.core = nil
                        observer.complete()
                        observer.clear()
                    }
                }
                delivery.lock.unlock()
                return observer
            }
            delivery.lock.unlock()
            if let initial { observer.receive(initial()) }
            self.replay?.replay(to: observer)
            if observer.claimDisposal(completing: true) {
                observer.complete()
                observer.clear()
            }
            return observer
        }
        observers.append(observer)
        observersChanged()
        observer.core = self
        let starting = start
        start = nil
        guard initial != nil || self.replay != nil else {
            delivery.lock.unlock()
            starting?()
            return observer
        }
        let replay = self.replay
        if delivery.isDelivering {
            // Held until the value is delivered: the observer may be disposed and let go
            // meanwhile, and retired observers are released before queued work runs.
            delivery.pending.append {
                if let initial, !observer.isDisposed { observer.receive(initial()) }
                replay?.replay(to: observer)
            }
            delivery.lock.unlock()
            starting?()
            return observer
        }
        delivery.begin()
        delivery.lock.unlock()
        if let initial, !observer.isDisposed { observer.receive(initial()) }
        replay?.replay(to: observer)
        delivery.leave()
        starting?()
        return observer
    }

    /// Registers `observer` on a property core: it first gets the committed (current)
    /// value, on the calling thread and before it is registered, so the core is never busy
    /// on its account; if a change was committed meanwhile, it gets the newer value
    /// instead of missing it. Then it gets every change committed after registration.
    @inlinable @discardableResult
    func addObservingCommitted(_ observer: Observer<Value>) -> Observer<Value> {
        // Such observers act on committed values only, never on the lead of a pair.
        observer.skipsLeadOfPair = true
        while true {
            delivery.lock.lock()
            let value = committed
            let version = commitCount
            let terminated = isTerminating
            delivery.lock.unlock()
            if let value, !observer.isDisposed { observer.receive(value) }
            if terminated {
                if observer.claimDisposal(completing: true) {
                    observer.complete()
                    observer.clear()
                }
                return observer
            }
            delivery.lock.lock()
            guard commitCount == version, !isTerminating else {
                delivery.lock.unlock()
                continue
            }
            if !observer.isDisposed {
                observers.append(observer)
                observersChanged()
                observer.core = self
            }
            delivery.lock.unlock()
            return observer
        }
    }

    /// Removes a disposed observer; it is cleared and released now, or when the delivery
    /// in progress ends.
    @inlinable
    func remove(_ observer: Observer<Value>) {
        var dropped: ContiguousArray<Observer<Value>> = []
        delivery.lock.lock()
        var index = 0
        while index < observers.count, observers[index] !== observer { index += 1 }
        if index < observers.count {
            observers.remove(at: index)
            observersChanged()
        }
        let delivering = delivery.isDelivering
        if delivering {
            delivery.retired.append(Delivery.Retired(observer: observer, core: self))
        } else {
            exchangeSnapshot(&dropped)
            snapshotVersion = -1
            seenDeliveryVersion = -1
        }
        let detach = takeUpstreamsIfUnused()
        delivery.lock.unlock()
        if !delivering { observer.clear() }
        withExtendedLifetime(dropped) {}
        detach?.dispose()
    }

    /// Keeps `disposable` (a subscription to a source) until this core detaches.
    @inlinable
    func addUpstream(_ disposable: Disposable) {
        delivery.lock.lock()
        let detached = isDetached
        if !detached { upstreams.append(disposable) }
        delivery.lock.unlock()
        if detached { disposable.dispose() }
    }

    /// A public wrapper (a ``Signal`` or ``Property``) now refers to this core.
    @inlinable
    func retainOwner() {
        delivery.lock.withLock { ownerCount += 1 }
    }

    /// A public wrapper went away; with no observers left the core stops listening upstream.
    @inlinable
    func releaseOwner() {
        delivery.lock.lock()
        ownerCount -= 1
        let detach = takeUpstreamsIfUnused()
        delivery.lock.unlock()
        detach?.dispose()
    }

    /// Detaches the core when nothing refers to it any more: no owner and no observer.
    /// Called with the lock held; returns the subscriptions to dispose, and the work that
    /// never started (it may hold sources), for the caller to let go after unlocking.
    @usableFromInline
    func takeUpstreamsIfUnused() -> Detachment? {
        guard ownerCount <= 0, observers.isEmpty, !isDetached else { return nil }
        isDetached = true
        defer {
            upstreams = []
            start = nil
        }
        return Detachment(upstreams: upstreams, unstarted: start)
    }

    /// Adds `work` to what runs when the first observer arrives (after it is registered),
    /// so whatever the sources send at once reaches that observer. Called while the
    /// operator that owns this core is being built.
    @inlinable
    func onStart(_ work: @escaping () -> Void) {
        delivery.lock.lock()
        if let earlier = start {
            start = {
                earlier()
                work()
            }
        } else {
            start = work
        }
        delivery.lock.unlock()
    }

    /// Subscribes `output` to this core: `output` stops listening when it detaches or completes.
    ///
    /// A prefix of this core reaches `value` at once, as the first value, unless
    /// `carryingPrefix` is given: then `carryingPrefix(prefix)` may set `output`'s own
    /// prefix instead, so every observer of `output` gets it (mapping operators do this).
    @inlinable
    func forward<Output>(
        to output: SignalCore<Output>,
        value: @escaping (Value) -> Void,
        completed: (() -> Void)? = nil,
        carryingPrefix: ((Value) -> Void)? = nil
    ) {
        if let carryingPrefix, let prefix { carryingPrefix(prefix) }
        subscribe(output, value: value, completed: completed, skippingPrefix: carryingPrefix != nil)
    }

    /// Registers the observer that feeds `output` (see `forward`), kept by `output`.
    @inlinable
    func subscribe<Output>(
        _ output: SignalCore<Output>,
        value: @escaping (Value) -> Void,
        completed: (() -> Void)?,
        skippingPrefix: Bool
    ) {
        let observer = ForwardObserver<Value>(onValue: value, onCompleted: completed ?? { output.sendCompleted() })
        output.addUpstream(add(observer, skippingPrefix: skippingPrefix))
    }

    /// Runs `body` holding the lock that `send(_:)` holds while it stores state.
    @inlinable
    func withLock<Result>(_ body: () -> Result) -> Result {
        delivery.lock.withLock(body)
    }

    // MARK: - Sending

    /// Sends `value` to every current observer. A property core passes `committing` for an
    /// event that carries a value: it is "committed", becoming `committed` and bumping
    /// `commitCount` under the lock, in sending order.
    @inlinable
    func send(_ value: Value, committing: Bool = false) {
        delivery.lock.lock()
        if isTerminating {
            delivery.lock.unlock()
            return
        }
        let replacedValue = committing ? commit(value) : nil
        if delivery.isDelivering {
            enqueue(value)
            delivery.lock.unlock()
            withExtendedLifetime(replacedValue) {}
            return
        }
        delivery.begin()
        let replaced = takeSnapshot()
        delivery.lock.unlock()
        withExtendedLifetime((replaced, replacedValue)) {}
        emit(value)
        delivery.leave()
    }

    /// Records `value`, an event that carries a property value, as committed. Called with
    /// the lock held; returns the value it replaced, for the caller to release after
    /// unlocking.
    @inlinable
    func commit(_ value: Value) -> Value? {
        var previous: Value? = value
        swap(&previous, &committed)
        commitCount &+= 1
        return previous
    }

    /// Queues `value` behind the delivery in progress. Called with the lock held.
    @usableFromInline @inline(never)
    func enqueue(_ value: Value) {
        queue(value) { core, value in core.emit(value) }
    }

    /// Queues `work(self, argument)` behind the delivery in progress, to run for the
    /// observers registered now. Called with the lock held. One allocation: pass `work`
    /// without captures, and what it needs as `argument`.
    @inlinable
    func queue<Argument>(_ argument: Argument, _ work: @escaping (SignalCore<Value>, Argument) -> Void) {
        let observers = self.observers
        delivery.pending.append { [self] in
            var previous = observers
            exchangeSnapshot(&previous)
            snapshotVersion = -1
            seenDeliveryVersion = -1
            withExtendedLifetime(previous) {}
            work(self, argument)
        }
    }

    /// Delivers `value` from inside the delivery this core shares with its source (see
    /// `init(sharingDeliveryOf:)`): no lock unless the observers changed.
    @inlinable
    func sendInDelivery(_ value: Value) {
        if seenDeliveryVersion != delivery.versionAtDelivery {
            delivery.lock.lock()
            let replaced = takeSnapshot()
            seenDeliveryVersion = delivery.versionAtDelivery
            delivery.lock.unlock()
            withExtendedLifetime(replaced) {}
        }
        emit(value)
    }

    /// Notes a change of `observers`. Called with the lock held.
    @inlinable
    func observersChanged() {
        observersVersion &+= 1
        delivery.version &+= 1
    }

    /// Sends the two events `make` returns (a property's `invalidate` and `changed`),
    /// computed while holding the lock so that the state `make` stores and the order of
    /// deliveries agree; the second carries the value and is committed. `make` returning
    /// nil sends nothing; the result says whether it sent.
    /// The first event goes out only when an observer takes it (a derived property does;
    /// one that acts on changes only, `Observer.skipsLeadOfPair`, does not).
    @inlinable @discardableResult
    func send(_ make: () -> (Value, Value)?) -> Bool {
        delivery.lock.lock()
        guard !isTerminating, let (first, second) = make() else {
            delivery.lock.unlock()
            return false
        }
        let replacedValue = commit(second)
        if delivery.isDelivering {
            queue((first, second)) { core, pair in
                if core.snapshotTakesLead { core.emit(pair.0) }
                core.emit(pair.1)
            }
            delivery.lock.unlock()
            withExtendedLifetime(replacedValue) {}
            return true
        }
        delivery.begin()
        let replaced = takeSnapshot()
        delivery.lock.unlock()
        withExtendedLifetime((replaced, replacedValue)) {}
        if snapshotTakesLead { emit(first) }
        emit(second)
        delivery.leave()
        return true
    }

    /// Sends `value`, then completes, as one step: nothing sent after this call (from
    /// inside an observer of `value`, or from another thread) is delivered. A producer's
    /// failure is sent so.
    @inlinable
    func sendLast(_ value: Value) {
        terminate(after: value)
    }

    /// Completes: observers get `onCompleted` once, then are released; later sends are dropped.
    @inlinable
    func sendCompleted() {
        terminate(after: nil)
    }

    /// Delivers `last` (if any), then the completion, as one step; later sends are dropped.
    @inlinable
    func terminate(after last: Value?) {
        delivery.lock.lock()
        if isTerminating {
            delivery.lock.unlock()
            return
        }
        isTerminating = true
        if delivery.isDelivering {
            queue(last) { core, last in
                if let last { core.emit(last) }
                core.emitCompleted()
            }
            delivery.lock.unlock()
            return
        }
        delivery.begin()
        let replaced = takeSnapshot()
        delivery.lock.unlock()
        withExtendedLifetime(replaced) {}
        if let last { emit(last) }
        emitCompleted()
        delivery.leave()
    }

    /// Runs `body(input)` serialized with every delivery of this core, so operator state
    /// touched by `body` needs no lock of its own; `body` delivers with `emit`.
    @inlinable
    ///
    /// Nothing runs once the core has detached (nobody observes or holds it any more): a
    /// step queued before then is dropped when its turn comes, so an operator starts no
    /// work (a retry's next attempt, a waiting inner signal) for no one.
    func serialize<Input>(_ input: Input, _ body: @escaping (Input) -> Void) {
        delivery.lock.lock()
        if isTerminating || isDetached {
            delivery.lock.unlock()
            return
        }
        if delivery.isDelivering {
            queue((input, body)) { core, work in
                guard !core.delivery.lock.withLock({ core.isDetached }) else { return }
                work.1(work.0)
            }
            delivery.lock.unlock()
            return
        }
        delivery.begin()
        let replaced = takeSnapshot()
        delivery.lock.unlock()
        withExtendedLifetime(replaced) {}
        body(input)
        delivery.leave()
    }

    // MARK: - Delivering (only inside a serialized section)

    /// Points `snapshot` at the current observers. Called with the lock held; returns the
    /// previous snapshot, which the caller releases after unlocking (releasing an observer
    /// can free closures, and so run user code).
    @inlinable
    func takeSnapshot() -> ContiguousArray<Observer<Value>>? {
        guard snapshotVersion != observersVersion else { return nil }
        var previous = observers
        exchangeSnapshot(&previous)
        snapshotVersion = observersVersion
        return previous
    }

    /// Delivers `value` to the observers registered at that moment, committing it first
    /// when `committing` (it carries a value): for a property core that combines several
    /// inputs inside its serialized section.
    @inlinable
    func emit(_ value: Value, committing: Bool) {
        delivery.lock.lock()
        let replacedValue = committing ? commit(value) : nil
        let replaced = takeSnapshot()
        delivery.lock.unlock()
        withExtendedLifetime((replaced, replacedValue)) {}
        emit(value)
    }

    /// Delivers `value` to the observers registered when the current work was sent.
    @inlinable
    func emit(_ value: Value) {
        guard !isFinished else { return }
        // The snapshot stays put while it is delivered to (only this thread replaces it, and
        // not during `emit`), so its observers are called without retaining each one.
        let observers = snapshotElements
        for index in observers.indices {
            Unmanaged.passUnretained(observers[index])._withUnsafeGuaranteedRef { observer in
                if !observer.isDisposed { observer.receive(value) }
            }
        }
    }

    /// Delivers completion to every registered observer (also those registered after the
    /// completion was queued), then releases them and the upstream subscriptions.
    @inlinable
    func emitCompleted() {
        guard !isFinished else { return }
        isFinished = true
        delivery.lock.lock()
        isTerminating = true
        var finished: ContiguousArray<Observer<Value>> = []
        swap(&finished, &observers)
        observersChanged()
        snapshotVersion = -1
        isDetached = true
        var sources: ContiguousArray<Disposable> = []
        swap(&sources, &upstreams)
        let unstarted = start
        start = nil
        delivery.lock.unlock()
        for observer in finished where observer.claimDisposal(completing: true) {
            observer.core = nil
            observer.complete()
            observer.clear()
        }
        var delivered: ContiguousArray<Observer<Value>> = []
        exchangeSnapshot(&delivered)
        withExtendedLifetime((finished, delivered, unstarted)) {}
        sources.forEach { $0.dispose() }
    }
}

/// The last values a core delivered, for `share(replay:)`, oldest first.
///
/// Written when a value is delivered and read when one is replayed, both inside the core's
/// serialized deliveries (or once its last delivery has ended), so a new observer gets
/// exactly the values delivered before its turn came, then the ones after. It needs no
/// lock of its own and is not `Sendable`: the delivering thread touches it, and a late
/// observer reads it only after the last delivery ended (under the delivery's lock).
@usableFromInline
final class ReplayBuffer<Value> {
    @usableFromInline let limit: Int
    @usableFromInline @exclusivity(unchecked) var values: ContiguousArray<Value> = []
    /// Where the oldest value is once `values` is full (it is used as a ring).
    @usableFromInline @exclusivity(unchecked) var oldest = 0

    @usableFromInline
    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Keeps `value` as the newest, dropping the oldest beyond `limit`.
    @usableFromInline
    func append(_ value: Value) {
        guard limit > 0 else { return }
        if values.count < limit {
            values.append(value)
        } else {
            values[oldest] = value
            oldest = (oldest + 1) % limit
        }
    }

    /// Delivers the kept values, oldest first, to `observer` until it is disposed.
    @usableFromInline
    func replay(to observer: Observer<Value>) {
        let kept = values
        for offset in kept.indices {
            guard !observer.isDisposed else { return }
            observer.receive(kept[(oldest + offset) % kept.count])
        }
    }
}
