/// The machinery behind every `Signal`: an observer list and a serial delivery queue.
///
/// Deliveries never overlap: the first sender delivers; a sender that finds a delivery in
/// progress (another thread's, or its own when sending from inside an observer) queues
/// its work, and the delivering thread runs it next, in FIFO order. Nothing blocks on a
/// delivery and no lock is held while user code runs.
// Safe to share: the observer list and queue are touched only under `lock`; the snapshot only by the one delivering thread.
@usableFromInline
final class SignalCore<Value>: @unchecked Sendable {
    @usableFromInline
    struct Pending {
        @usableFromInline let work: () -> Void
        @usableFromInline let observers: ContiguousArray<Observer<Value>>

        @inlinable
        init(work: @escaping () -> Void, observers: ContiguousArray<Observer<Value>>) {
            self.work = work
            self.observers = observers
        }
    }

    @usableFromInline let lock = SpinLock()
    // Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var observers: ContiguousArray<Observer<Value>> = []
    @usableFromInline @exclusivity(unchecked) var pending: ContiguousArray<Pending> = []
    @usableFromInline @exclusivity(unchecked) var pendingHead = 0
    @usableFromInline @exclusivity(unchecked) var retired: ContiguousArray<Observer<Value>> = []
    @usableFromInline @exclusivity(unchecked) var isDelivering = false
    @usableFromInline @exclusivity(unchecked) var isTerminating = false
    @usableFromInline @exclusivity(unchecked) var ownerCount = 0
    @usableFromInline @exclusivity(unchecked) var isDetached = false
    @usableFromInline @exclusivity(unchecked) var upstreams: ContiguousArray<Disposable> = []
    // Touched only by the delivering thread.
    @usableFromInline @exclusivity(unchecked) var snapshot: ContiguousArray<Observer<Value>> = [] {
        didSet { snapshotElements = snapshot.withUnsafeBufferPointer { $0 } }
    }
    /// The elements of `snapshot`, read by `emit` without retaining the array or its
    /// observers: `snapshot` owns them, and its storage is never changed in place, only
    /// replaced (which sets this again).
    @usableFromInline @exclusivity(unchecked) var snapshotElements = UnsafeBufferPointer<Observer<Value>>(start: nil, count: 0)
    /// Bumped whenever `observers` changes, so an unchanged list is not copied per delivery.
    @usableFromInline @exclusivity(unchecked) var observersVersion = 0
    @usableFromInline @exclusivity(unchecked) var snapshotVersion = -1
    @usableFromInline @exclusivity(unchecked) var isFinished = false

    /// A value handed to each new observer before anything else (`prefix(value:)`).
    @usableFromInline @exclusivity(unchecked) var prefix: Value?
    /// For a property core: which events carry a value. Each one sent is "committed": it
    /// becomes `committed` and bumps `commitCount`, under the lock, in sending order.
    @usableFromInline @exclusivity(unchecked) var carriesValue: ((Value) -> Bool)?
    /// The last committed value event (a property's current value, as delivered in order).
    @usableFromInline @exclusivity(unchecked) var committed: Value?
    @usableFromInline @exclusivity(unchecked) var commitCount = 0
    /// Work to start when the first observer arrives (`Signal.init(_:)`); run once.
    @usableFromInline @exclusivity(unchecked) var start: (() -> Void)?

    @usableFromInline init() {}

    // MARK: - Registration

    /// Registers `observer`. `initial` (or else the prefix, unless `skippingPrefix`) runs
    /// for this observer alone, in delivery order, before any value sent after this call.
    @inlinable @discardableResult
    func add(
        _ observer: Observer<Value>,
        initial: (() -> Value)? = nil,
        skippingPrefix: Bool = false
    ) -> Observer<Value> {
        let initial = initial ?? (skippingPrefix ? nil : prefix.map { value in { value } })
        lock.lock()
        if isTerminating {
            lock.unlock()
            if let initial { observer.receive(initial()) }
            if observer.claimDisposal(completing: true) {
                observer.complete()
                observer.clear()
            }
            return observer
        }
        observers.append(observer)
        observersVersion &+= 1
        observer.core = self
        let starting = start
        start = nil
        guard let initial else {
            lock.unlock()
            starting?()
            return observer
        }
        if isDelivering {
            pending.append(Pending(work: { [unowned observer] in
                if !observer.isDisposed { observer.receive(initial()) }
            }, observers: []))
            lock.unlock()
            starting?()
            return observer
        }
        isDelivering = true
        lock.unlock()
        if !observer.isDisposed { observer.receive(initial()) }
        leave()
        starting?()
        return observer
    }

    /// Registers `observer` on a property core: it first gets the committed (current)
    /// value, on the calling thread and before it is registered, so the core is never busy
    /// on its account; if a change was committed meanwhile, it gets the newer value
    /// instead of missing it. Then it gets every change committed after registration.
    @inlinable @discardableResult
    func addObservingCommitted(_ observer: Observer<Value>) -> Observer<Value> {
        while true {
            lock.lock()
            let value = committed
            let version = commitCount
            let terminated = isTerminating
            lock.unlock()
            if let value, !observer.isDisposed { observer.receive(value) }
            if terminated {
                if observer.claimDisposal(completing: true) {
                    observer.complete()
                    observer.clear()
                }
                return observer
            }
            lock.lock()
            guard commitCount == version, !isTerminating else {
                lock.unlock()
                continue
            }
            if !observer.isDisposed {
                observers.append(observer)
                observersVersion &+= 1
                observer.core = self
            }
            lock.unlock()
            return observer
        }
    }

    /// Removes a disposed observer; it is cleared and released now, or when the delivery
    /// in progress ends.
    @inlinable
    func remove(_ observer: Observer<Value>) {
        var dropped: ContiguousArray<Observer<Value>> = []
        lock.lock()
        var index = 0
        while index < observers.count, observers[index] !== observer { index += 1 }
        if index < observers.count {
            observers.remove(at: index)
            observersVersion &+= 1
        }
        let delivering = isDelivering
        if delivering {
            retired.append(observer)
        } else {
            swap(&dropped, &snapshot)
            snapshotVersion = -1
        }
        let detach = takeUpstreamsIfUnused()
        lock.unlock()
        if !delivering { observer.clear() }
        withExtendedLifetime(dropped) {}
        detach?.forEach { $0.dispose() }
    }

    /// Keeps `disposable` (a subscription to a source) until this core detaches.
    @inlinable
    func addUpstream(_ disposable: Disposable) {
        lock.lock()
        let detached = isDetached
        if !detached { upstreams.append(disposable) }
        lock.unlock()
        if detached { disposable.dispose() }
    }

    /// A public wrapper (a `Signal` or `Property`) now refers to this core.
    @inlinable
    func retainOwner() {
        lock.withLock { ownerCount += 1 }
    }

    /// A public wrapper went away; with no observers left the core stops listening upstream.
    @inlinable
    func releaseOwner() {
        lock.lock()
        ownerCount -= 1
        let detach = takeUpstreamsIfUnused()
        lock.unlock()
        detach?.forEach { $0.dispose() }
    }

    @usableFromInline
    func takeUpstreamsIfUnused() -> ContiguousArray<Disposable>? {
        guard ownerCount <= 0, observers.isEmpty, !isDetached else { return nil }
        isDetached = true
        defer { upstreams = [] }
        return upstreams
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
        let observer = ForwardObserver<Value>(onValue: value, onCompleted: completed ?? { output.sendCompleted() })
        output.addUpstream(add(observer, skippingPrefix: carryingPrefix != nil))
    }

    /// Runs `body` holding the lock that `send(_:)` holds while it stores state.
    @inlinable
    func withLock<Result>(_ body: () -> Result) -> Result {
        lock.withLock(body)
    }

    // MARK: - Sending

    /// Sends `value` to every current observer; a property core passes `committing`, so
    /// a value it carries becomes the committed (current) value.
    @inlinable
    func send(_ value: Value, committing: Bool = false) {
        lock.lock()
        if isTerminating {
            lock.unlock()
            return
        }
        let replacedValue = committing ? commit(value) : nil
        if isDelivering {
            enqueue(value)
            lock.unlock()
            withExtendedLifetime(replacedValue) {}
            return
        }
        isDelivering = true
        let replaced = takeSnapshot()
        lock.unlock()
        withExtendedLifetime((replaced, replacedValue)) {}
        emit(value)
        leave()
    }

    /// Records `value` as committed if it carries a property value. Called with the lock
    /// held; returns the value it replaced, for the caller to release after unlocking.
    @inlinable
    func commit(_ value: Value) -> Value? {
        guard let carriesValue, carriesValue(value) else { return nil }
        var previous: Value? = value
        swap(&previous, &committed)
        commitCount &+= 1
        return previous
    }

    /// Queues `value` behind the delivery in progress. Called with the lock held.
    @usableFromInline @inline(never)
    func enqueue(_ value: Value) {
        pending.append(Pending(work: { [self] in emit(value) }, observers: observers))
    }

    /// Sends the two events `make` returns (a property's `invalidate` and `changed`),
    /// computed while holding the lock so that the state `make` stores and the order of
    /// deliveries agree. `make` returning nil sends nothing; the result says whether it sent.
    @inlinable @discardableResult
    func send(_ make: () -> (Value, Value)?) -> Bool {
        lock.lock()
        guard !isTerminating, let (first, second) = make() else {
            lock.unlock()
            return false
        }
        let replacedValue = (commit(first), commit(second))
        if isDelivering {
            pending.append(Pending(work: { [self] in
                emit(first)
                emit(second)
            }, observers: observers))
            lock.unlock()
            withExtendedLifetime(replacedValue) {}
            return true
        }
        isDelivering = true
        let replaced = takeSnapshot()
        lock.unlock()
        withExtendedLifetime((replaced, replacedValue)) {}
        emit(first)
        emit(second)
        leave()
        return true
    }

    /// Completes: observers get `onCompleted` once, then are released; later sends are dropped.
    @inlinable
    func sendCompleted() {
        lock.lock()
        if isTerminating {
            lock.unlock()
            return
        }
        isTerminating = true
        if isDelivering {
            pending.append(Pending(work: { [self] in emitCompleted() }, observers: observers))
            lock.unlock()
            return
        }
        isDelivering = true
        let replaced = takeSnapshot()
        lock.unlock()
        withExtendedLifetime(replaced) {}
        emitCompleted()
        leave()
    }

    /// Runs `body(input)` serialized with every delivery of this core, so operator state
    /// touched by `body` needs no lock of its own; `body` delivers with `emit`.
    @inlinable
    func serialize<Input>(_ input: Input, _ body: @escaping (Input) -> Void) {
        lock.lock()
        if isTerminating {
            lock.unlock()
            return
        }
        if isDelivering {
            pending.append(Pending(work: { body(input) }, observers: observers))
            lock.unlock()
            return
        }
        isDelivering = true
        let replaced = takeSnapshot()
        lock.unlock()
        withExtendedLifetime(replaced) {}
        body(input)
        leave()
    }

    // MARK: - Delivering (only inside a serialized section)

    /// Points `snapshot` at the current observers. Called with the lock held; returns the
    /// previous snapshot, which the caller releases after unlocking (releasing an observer
    /// can free closures, and so run user code).
    @inlinable
    func takeSnapshot() -> ContiguousArray<Observer<Value>>? {
        guard snapshotVersion != observersVersion else { return nil }
        var previous = observers
        swap(&previous, &snapshot)
        snapshotVersion = observersVersion
        return previous
    }

    /// Commits `value` and delivers it to the observers registered at that moment: for a
    /// property core that combines several inputs inside its serialized section.
    @inlinable
    func emitCommitting(_ value: Value) {
        lock.lock()
        let replacedValue = commit(value)
        let replaced = takeSnapshot()
        lock.unlock()
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
        lock.lock()
        isTerminating = true
        var finished: ContiguousArray<Observer<Value>> = []
        swap(&finished, &observers)
        observersVersion &+= 1
        snapshotVersion = -1
        isDetached = true
        var sources: ContiguousArray<Disposable> = []
        swap(&sources, &upstreams)
        lock.unlock()
        for observer in finished where observer.claimDisposal(completing: true) {
            observer.core = nil
            observer.complete()
            observer.clear()
        }
        var delivered: ContiguousArray<Observer<Value>> = []
        swap(&delivered, &snapshot)
        withExtendedLifetime((finished, delivered)) {}
        sources.forEach { $0.dispose() }
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
            var finishedWork: ContiguousArray<Pending> = []
            if pendingHead >= 64, pendingHead * 2 >= pending.count {
                var rest = ContiguousArray(pending[pendingHead...])
                swap(&rest, &pending)
                swap(&finishedWork, &rest)
                pendingHead = 0
            }
            var removed: ContiguousArray<Observer<Value>> = []
            swap(&removed, &retired)
            if pendingHead < pending.count {
                let next = pending[pendingHead]
                pendingHead += 1
                var previous = next.observers
                swap(&previous, &snapshot)
                snapshotVersion = -1
                lock.unlock()
                for observer in removed { observer.clear() }
                withExtendedLifetime((previous, removed, finishedWork)) {}
                next.work()
                continue
            }
            isDelivering = false
            if pendingHead == 0 && removed.isEmpty && finishedWork.isEmpty {
                lock.unlock()
                return
            }
            // Observers removed during the delivery are still in the snapshot: drop it so
            // they are freed now, not at the next delivery.
            var done = (pending: ContiguousArray<Pending>(), snapshot: ContiguousArray<Observer<Value>>())
            swap(&done.pending, &pending)
            if !removed.isEmpty { swap(&done.snapshot, &snapshot) }
            snapshotVersion = -1
            pendingHead = 0
            lock.unlock()
            for observer in removed { observer.clear() }
            withExtendedLifetime((done, removed, finishedWork)) {}
            return
        }
    }
}
