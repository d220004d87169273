/// Sending and delivering. Every sender (a value, a completion, a property's change, an
/// operator's serialized step, a new observer's first values) checks the lifecycle and
/// stores its state under the lock, then calls `enterDeliveryLocked(releasing:orQueue:)`,
/// the only place that decides whether this thread delivers now or the work is queued:
///
/// ```swift
/// if enterDeliveryLocked(releasing: replaced, orQueue: { queue(argument, work) }) {
///     work(self, argument)   // the same work, now, on this thread
///     delivery.leave()       // then whatever was queued meanwhile
/// }
/// ```
extension SignalCore {
    // MARK: - The one way in

    /// Delivers now or queues: the one place that decides. Called with the lock held, once
    /// the sender has checked the lifecycle and stored its state; unlocks, then releases
    /// `garbage` (what the sender replaced under the lock), since releasing can run user
    /// code.
    ///
    /// With a delivery in progress (another thread's, or this one's from inside an
    /// observer), calls `enqueue`, still under the lock, which queues the sender's work
    /// with `queue(_:_:)` to run for the observers registered now, and returns false.
    /// Otherwise starts a delivery on this thread, points the snapshot at the current
    /// observers, and returns true: the caller then runs its work and calls
    /// `delivery.leave()`, which runs whatever was queued meanwhile.
    ///
    /// The caller runs its work itself rather than passing it in: a closure holding an
    /// operator's step was not inlined, and cost `serialize` (scenario D) about 3 ns a
    /// value in wall time for the same instruction count. `enqueue` is not escaping, so
    /// the work a sender queues is built only when it is queued.
    @inlinable @inline(__always)
    func enterDeliveryLocked<Garbage>(releasing garbage: Garbage, orQueue enqueue: () -> Void) -> Bool {
        if delivery.isDelivering {
            enqueue()
            delivery.lock.unlock()
            withExtendedLifetime(garbage) {}
            return false
        }
        delivery.begin()
        let replaced = takeSnapshot()
        delivery.lock.unlock()
        withExtendedLifetime(garbage) {}
        // Released only when there is one: a release of nil is still a call.
        if let replaced { withExtendedLifetime(replaced) {} }
        return true
    }

    /// Queues `work(self, argument)` behind the delivery in progress, to run for the
    /// observers registered now (none, if the completion is delivered first: they were let
    /// go then). Called with the lock held (by the `enqueue` of `enterDeliveryLocked`). One
    /// allocation: pass `work` without captures, and what it needs as `argument`. Kept out
    /// of line, so that the senders' common path stays small.
    ///
    /// When observers of the delivery changed between queuing and running (the delivery's
    /// `version` moved), the list of then is the snapshot only while `work` runs: kept, it
    /// would hold observers disposed since, and their closures, until the next delivery.
    /// Otherwise it is the current list, and stays.
    @inlinable @inline(never)
    func queue<Argument>(_ argument: Argument, _ work: @escaping (SignalCore<Value>, Argument) -> Void) {
        let observers = self.observers
        let version = delivery.version
        delivery.pending.append { [self] in
            withExtendedLifetime(replaceSnapshot(with: deliveredCompletion ? [] : observers)) {}
            work(self, argument)
            if version != delivery.versionAtDelivery { withExtendedLifetime(replaceSnapshot()) {} }
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
        if enterDeliveryLocked(releasing: replacedValue, orQueue: { enqueue(value) }) {
            emit(value)
            delivery.leave()
        }
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
        let entered = enterDeliveryLocked(releasing: ()) {
            queue(last) { core, last in core.emitLast(last) }
        }
        if entered {
            emitLast(last)
            delivery.leave()
        }
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
        let entered = enterDeliveryLocked(releasing: ()) {
            queue((input, body)) { core, step in
                guard !core.delivery.lock.withLock({ core.lifecycle.isDetached }) else { return }
                step.1(step.0)
            }
        }
        if entered {
            body(input)
            delivery.leave()
        }
    }

    /// Delivers `value` from inside the delivery this core shares with its source (see
    /// `init(sharingDeliveryOf:)`): no lock unless the observers changed. An event only the
    /// observers that take a pair's lead act on (a property's `invalidate` and `unchanged`)
    /// is `forLeadTakers`: with none in the snapshot, it goes nowhere.
    @inlinable
    func sendInDelivery(_ value: Value, forLeadTakers: Bool = false) {
        if seenDeliveryVersion != delivery.versionAtDelivery {
            delivery.lock.lock()
            let replaced = takeSnapshot()
            seenDeliveryVersion = delivery.versionAtDelivery
            delivery.lock.unlock()
            withExtendedLifetime(replaced) {}
        }
        if forLeadTakers && !snapshotTakesLead { return }
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
    func exchangeSnapshot(_ other: inout [Observer<Value>]) {
        swap(&other, &snapshot)
        let elements = snapshot.withUnsafeBufferPointer { $0 }
        snapshotElements = elements
        var takers = 0
        for index in elements.indices where !elements[index].skipsLeadOfPair { takers += 1 }
        snapshotTakesLead = takers > 0
        snapshotPairsHead = takers == 1 && !elements[0].skipsLeadOfPair
    }

    /// Points the snapshot at `observers` until the next `takeSnapshot()` or
    /// `sendInDelivery(_:forLeadTakers:)` takes it again; returns the snapshot it replaced,
    /// for the caller to release.
    @inlinable
    func replaceSnapshot(with observers: [Observer<Value>] = []) -> [Observer<Value>] {
        var previous = observers
        exchangeSnapshot(&previous)
        snapshotVersion = -1
        seenDeliveryVersion = -1
        return previous
    }

    /// Empties the snapshot (see `SnapshotHolder`).
    @usableFromInline
    func dropSnapshot() -> Any {
        replaceSnapshot()
    }

    /// Points `snapshot` at the current observers. Called with the lock held; returns the
    /// previous snapshot, which the caller releases after unlocking (releasing an observer
    /// can free closures, and so run user code). The check is in line, the taking not.
    @inlinable @inline(__always)
    func takeSnapshot() -> [Observer<Value>]? {
        snapshotVersion == observersVersion ? nil : retakeSnapshot()
    }

    /// `takeSnapshot()` when the observers changed.
    @inlinable @inline(never)
    func retakeSnapshot() -> [Observer<Value>] {
        var previous = joining.isEmpty ? observers : observers.filter { listed in !joining.contains { $0 === listed } }
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
        withExtendedLifetime(replacedValue) {}
        // Released only when there is one: a release of nil is still a call.
        if let replaced { withExtendedLifetime(replaced) {} }
        emit(value)
    }

    /// Delivers `value` to the observers registered when the current work was sent (from
    /// the one at `start` on). After the completion the snapshot is empty, so nothing is
    /// delivered.
    @inlinable
    func emit(_ value: Value, from start: Int = 0) {
        // The snapshot stays put while it is delivered to (only this thread replaces it, and
        // not during `emit`), so its observers are called without retaining each one.
        let observers = snapshotElements
        for index in start..<observers.count {
            Unmanaged.passUnretained(observers[index])._withUnsafeGuaranteedRef { observer in
                guard !observer.isDisposed else { return }
                // An operator's link: its closure, with no virtual call on the way.
                if observer.forwards { return unsafeDowncast(observer, to: ForwardObserver<Value>.self).onValue(value) }
                observer.receive(value)
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
        var finished: [Observer<Value>] = []
        swap(&finished, &observers)
        observersChanged()
        let releasesItself = retainsItself
        retainsItself = false
        snapshotVersion = -1
        var sources: ContiguousArray<Disposable> = []
        swap(&sources, &upstreams)
        let unstarted = start
        start = nil
        delivery.lock.unlock()
        // Emptied first, so a value emitted while observers complete reaches none of them.
        deliveredCompletion = true
        var delivered: [Observer<Value>] = []
        exchangeSnapshot(&delivered)
        for observer in finished { observer.complete(registeredOn: self) }
        withExtendedLifetime((finished, delivered, unstarted)) {}
        sources.forEach { $0.dispose() }
        // Whoever called this holds the core: this is never the last release.
        if releasesItself { Unmanaged.passUnretained(self).release() }
    }
}
