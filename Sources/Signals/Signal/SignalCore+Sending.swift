/// Sending and delivering. Every sender (a value, a completion, a property's change, an
/// operator's serialized step, a new observer's first values) checks the lifecycle and
/// stores its state under the lock, then hands its work to `deliverLocked(_:releasing:_:)`,
/// which delivers now or queues it: that is the only place that decides.
extension SignalCore {
    // MARK: - The one way in

    /// Delivers now or queues: the one place that decides. Called with the lock held, once
    /// the sender has checked the lifecycle and stored its state; unlocks, then releases
    /// `garbage` (what the sender replaced under the lock), since releasing can run user
    /// code.
    ///
    /// With no delivery in progress, this thread delivers: it points the snapshot at the
    /// current observers, unlocks, runs `deliver`, then whatever was queued meanwhile
    /// (`Delivery.leave`). Otherwise it calls `enqueue`, still under the lock, which queues
    /// the same work with `queue(_:_:)`, to run for the observers registered now.
    ///
    /// The two closures are not escaping and this is always inlined, so the common path
    /// allocates nothing and the work a sender queues is built only when it is queued (an
    /// operator's closure put into a queued step needs a thunk, which allocates).
    @inlinable @inline(__always)
    func deliverLocked<Garbage>(
        releasing garbage: Garbage,
        enqueue: () -> Void,
        deliver: () -> Void
    ) {
        if delivery.isDelivering {
            enqueue()
            delivery.lock.unlock()
            withExtendedLifetime(garbage) {}
            return
        }
        delivery.begin()
        let replaced = takeSnapshot()
        delivery.lock.unlock()
        withExtendedLifetime((replaced, garbage)) {}
        deliver()
        delivery.leave()
    }

    /// Queues `work(self, argument)` behind the delivery in progress, to run for the
    /// observers registered now. Called with the lock held (by `deliverLocked`'s
    /// `enqueue`). One allocation: pass `work` without captures, and what it needs as
    /// `argument`. Kept out of line, so that the senders' common path stays small.
    @inlinable @inline(never)
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

    // MARK: - Senders

    /// Sends `value` to every current observer. A property core passes `committing` for an
    /// event that carries a value: it is "committed", becoming `committed` and bumping
    /// `commitCount` under the lock, in sending order.
    @inlinable
    func send(_ value: Value, committing: Bool = false) {
        delivery.lock.lock()
        if lifecycle.isTerminating {
            delivery.lock.unlock()
            return
        }
        let replacedValue = committing ? commit(value) : nil
        deliverLocked(releasing: replacedValue, enqueue: { enqueue(value) }, deliver: { emit(value) })
    }

    /// Queues `value` behind the delivery in progress; out of line, so that `send` stays
    /// small where it is inlined.
    @usableFromInline @inline(never)
    func enqueue(_ value: Value) {
        queue(value) { core, value in core.emit(value) }
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
        guard lifecycle.terminate() else {
            delivery.lock.unlock()
            return
        }
        deliverLocked(
            releasing: (),
            enqueue: { queue(last) { core, last in core.emitLast(last) } },
            deliver: { emitLast(last) })
    }

    /// Delivers `last` (if any), then the completion.
    @inlinable
    func emitLast(_ last: Value?) {
        if let last { emit(last) }
        emitCompleted()
    }

    /// Runs `body(input)` serialized with every delivery of this core, so operator state
    /// touched by `body` needs no lock of its own; `body` delivers with `emit`.
    ///
    /// Nothing runs once the core has detached (nobody observes or holds it any more): a
    /// step queued before then is dropped when its turn comes, so an operator starts no
    /// work (a retry's next attempt, a waiting inner signal) for no one.
    @inlinable
    func serialize<Input>(_ input: Input, _ body: @escaping (Input) -> Void) {
        delivery.lock.lock()
        // Neither terminating nor detached: only an active core runs a step.
        guard case .active = lifecycle else {
            delivery.lock.unlock()
            return
        }
        deliverLocked(
            releasing: (),
            enqueue: {
                queue((input, body)) { core, step in
                    guard !core.delivery.lock.withLock({ core.lifecycle.isDetached }) else { return }
                    step.1(step.0)
                }
            },
            deliver: { body(input) })
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

    // MARK: - Delivering (only inside a delivery of this core)

    /// Notes a change of `observers`. Called with the lock held.
    @inlinable
    func observersChanged() {
        observersVersion &+= 1
        delivery.version &+= 1
    }

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

    /// Empties the snapshot (see `SnapshotHolder`).
    @usableFromInline
    func dropSnapshot() -> Any {
        var dropped: ContiguousArray<Observer<Value>> = []
        exchangeSnapshot(&dropped)
        snapshotVersion = -1
        seenDeliveryVersion = -1
        return dropped
    }

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

    /// Delivers `value` to the observers registered when the current work was sent. After
    /// the completion the snapshot is empty, so nothing is delivered.
    @inlinable
    func emit(_ value: Value) {
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
    /// completion was queued), then releases them and the upstream subscriptions. Runs once;
    /// an operator may call it from inside a delivery to complete its output at once.
    @inlinable
    func emitCompleted() {
        delivery.lock.lock()
        guard lifecycle.finish() else {
            delivery.lock.unlock()
            return
        }
        var finished: ContiguousArray<Observer<Value>> = []
        swap(&finished, &observers)
        observersChanged()
        snapshotVersion = -1
        var sources: ContiguousArray<Disposable> = []
        swap(&sources, &upstreams)
        let unstarted = start
        start = nil
        delivery.lock.unlock()
        // Emptied first, so a value emitted while observers complete reaches none of them.
        var delivered: ContiguousArray<Observer<Value>> = []
        exchangeSnapshot(&delivered)
        for observer in finished where observer.claimDisposal(completing: true) {
            observer.core = nil
            observer.complete()
            observer.clear()
        }
        withExtendedLifetime((finished, delivered, unstarted)) {}
        sources.forEach { $0.dispose() }
    }
}
