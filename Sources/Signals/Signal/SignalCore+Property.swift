#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What only a property's core uses: the committed value, registering an observer that
/// starts from it, and sending a change as an `invalidate`/`changed` pair.
extension SignalCore {
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

    /// Registers `observer` on a property core: it first gets the committed (current)
    /// value, on the calling thread and before it is registered, so the core is never busy
    /// on its account; if a change was committed meanwhile, it gets the newer value
    /// instead of missing it. Then it gets every change committed after registration.
    ///
    /// While a combination delivers a change it commits only as the delivery ends
    /// (`LateCommit`), an observer registering from inside that delivery, once the change
    /// is known, starts from it; one registering from another thread, or before the change
    /// is known, starts from the committed value and catches up with the change when the
    /// delivery commits it.
    @inlinable @discardableResult
    func addObservingCommitted(_ observer: Observer<Value>) -> Observer<Value> {
        // Such observers act on committed values only, never on the lead of a pair.
        observer.skipsLeadOfPair = true
        while true {
            delivery.lock.lock()
            let delivering = lateCommit?.valueForThisThread()
            let value = delivering ?? committed
            let version = commitCount
            let terminated = lifecycle.isTerminating
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
            guard commitCount == version, !lifecycle.isTerminating else {
                delivery.lock.unlock()
                continue
            }
            if !observer.isDisposed {
                observers.append(observer)
                observersChanged()
                retainItselfIfUnowned()
                observer.register(on: self)
                if delivering == nil, let lateCommit, lateCommit.isPending { lateCommit.catchingUp.append(observer) }
            }
            delivery.lock.unlock()
            return observer
        }
    }

    /// Sends the two events `make` returns (a property's `invalidate` and `changed`),
    /// computed while holding the lock so that the state `make` stores and the order of
    /// deliveries agree; the second carries the value and is committed. `make` returning
    /// nil sends nothing; the result says whether it sent.
    /// The first event goes out only when an observer takes it (a derived property does;
    /// one that acts on changes only, `Observer.skipsLeadOfPair`, does not).
    ///
    /// While `gate` is open (the root changes of `Propagation`), the delivery, if this thread
    /// makes it, is a propagation, whose end tells the combinations that waited for it. The
    /// gate is read under the lock, so that a combination attached (under this lock) after a
    /// signal-fed property opened it is never reached by an untracked change.
    @inlinable @discardableResult
    func send(trackedBy gate: PropagationGate? = nil, _ make: () -> (Value, Value)?) -> Bool {
        delivery.lock.lock()
        let tracked = gate?.isOpen ?? false
        guard !lifecycle.isTerminating, let (first, second) = make() else {
            delivery.lock.unlock()
            return false
        }
        let replacedValue = commit(second)
        let entered = enterDeliveryLocked(releasing: replacedValue) {
            queue((first, second)) { core, pair in core.emitPair(pair) }
        }
        if entered {
            if _slowPath(tracked) { return emitAsPropagation((first, second)) }
            emitPair((first, second))
            delivery.leave()
        }
        return true
    }

    /// Starts a delivery of what `make` returns (committed when `committing`), when no
    /// delivery is in progress: `make` runs under the lock. Returns the value, which the
    /// caller then delivers before calling `leaveDelivery()` (it runs its work itself, as
    /// with `enterDeliveryLocked`: passed in as a closure, the work was not inlined); nil,
    /// with nothing run but `make`, when a delivery is in progress, the core is not active,
    /// or `make` returns nil.
    @inlinable
    func enterIfIdle(committing: Bool, _ make: () -> Value?) -> Value? {
        delivery.lock.lock()
        guard case .active = lifecycle, !delivery.isDelivering, let value = make() else {
            delivery.lock.unlock()
            return nil
        }
        let replacedValue = committing ? commit(value) : nil
        delivery.begin()
        let replaced = takeSnapshot()
        delivery.lock.unlock()
        withExtendedLifetime(replacedValue) {}
        if let replaced { withExtendedLifetime(replaced) {} }
        return value
    }

    /// Ends the delivery `enterIfIdle` started, for its caller: `delivery` is read by the
    /// core itself, so it is not retained around the call.
    @inlinable
    func leaveDelivery() { delivery.leave() }

    /// Ends the delivery of a change `late` commits now (see `LateCommit`), in the section
    /// that ends it: the observers that registered while it was delivered catch up with it
    /// first, inside the delivery, so nothing sent meanwhile overtakes it.
    @inlinable
    func leaveDelivery(committing late: LateCommit<Value>) {
        delivery.lock.lock()
        guard late.catchingUp.isEmpty, delivery.pendingHead == 0, delivery.pending.isEmpty, delivery.retired.isEmpty
        else { return leave(catchingUp: late) }
        let replaced = late.close().map { commit($0) } ?? nil
        delivery.isDelivering = false
        delivery.lock.unlock()
        withExtendedLifetime(replaced) {}
    }

    /// `leaveDelivery(committing:)` once observers catch up or work was queued; called with
    /// the lock held.
    @usableFromInline @inline(never)
    func leave(catchingUp late: LateCommit<Value>) {
        let change = late.close()
        let replaced = change.map { commit($0) } ?? nil
        var catchingUp: [Observer<Value>] = []
        swap(&catchingUp, &late.catchingUp)
        delivery.lock.unlock()
        withExtendedLifetime(replaced) {}
        if let change { catchUp(catchingUp, with: change) }
        // Released before the delivery locks again (their deinits may lock it): a local
        // would live to the end of this scope in a debug build.
        catchingUp = []
        delivery.leave()
    }

    /// Delivers `change` to `observers`, which registered while it was delivered.
    @usableFromInline @inline(never)
    func catchUp(_ observers: [Observer<Value>], with change: Value) {
        for observer in observers where !observer.isDisposed { observer.receive(change) }
    }

    /// Delivers a pair as a tracked `send(trackedBy:_:)` does, out of line; returns true.
    @usableFromInline
    func emitAsPropagation(_ pair: (Value, Value)) -> Bool {
        let propagation = Propagation.current
        propagation.enter()
        emitPair(pair)
        delivery.leave()
        propagation.leave()
        return true
    }

    /// Delivers a pair sent by `send(_:)`: its first event only when an observer takes it.
    /// When the first observer alone takes it, that observer gets the pair as one call (a
    /// combined property then takes both events in one step), then the others the second.
    @inlinable
    func emitPair(_ pair: (Value, Value)) {
        guard snapshotPairsHead else {
            if snapshotTakesLead { emit(pair.0) }
            return emit(pair.1)
        }
        Unmanaged.passUnretained(snapshotElements[0])._withUnsafeGuaranteedRef { head in
            guard !head.isDisposed else { return }
            // A combination's input: its closure, with no virtual call on the way.
            if head.takesPairs { return unsafeDowncast(head, to: PairForwardObserver<Value>.self).onPair(pair.1) }
            head.receive(pair.0, then: pair.1)
        }
        // A call for no one skipped: the head is often the only observer.
        if snapshotElements.count > 1 { emit(pair.1, from: 1) }
    }
}

/// The change a combination's delivery commits as it ends, where it would otherwise take a
/// lock round trip of its own before delivering it: the inputs are compared or the result
/// built by user code, after the section that starts the delivery, so the change is known
/// only then. While it is pending, an observer that registers on the core starts from the
/// committed value and catches up with the change when it is committed, unless it
/// registers from inside the delivery once the change is known: it then starts from it.
// Safe to share: `isPending`, `thread` and `catchingUp` are touched only under the
// delivery's lock; `change` only by the delivering thread (`valueForThisThread()` reads it
// on that thread alone).
@usableFromInline
final class LateCommit<Value>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var isPending = false
    /// The thread delivering, while pending.
    @usableFromInline @exclusivity(unchecked) var thread: pthread_t?
    /// The change being delivered, once known (nil while it is settled, and when nothing
    /// changed).
    @usableFromInline @exclusivity(unchecked) var change: Value?
    /// Observers registered while pending, which did not start from `change`.
    @usableFromInline @exclusivity(unchecked) var catchingUp: [Observer<Value>] = []

    @inlinable
    init() {}

    /// Marks the delivery starting on this thread as one that commits at its end. Called
    /// with the lock held.
    @inlinable
    func open() {
        isPending = true
        thread = pthread_self()
    }

    /// The change being delivered, when this thread delivers it; called with the lock held.
    @inlinable
    func valueForThisThread() -> Value? {
        guard isPending, let thread, pthread_equal(thread, pthread_self()) != 0 else { return nil }
        return change
    }

    /// Ends the pending delivery and hands over its change to commit, if any. Called with
    /// the lock held.
    @inlinable
    func close() -> Value? {
        isPending = false
        thread = nil
        var taken: Value?
        swap(&taken, &change)
        return taken
    }
}
