/// The observer list and the core's lifetime: registering and removing observers, owners,
/// upstream subscriptions, the work that starts at the first observer, and detaching.
extension SignalCore {
    /// Registers `observer`. `initial` (or else the prefix, unless `skippingPrefix`) runs
    /// for this observer alone, in delivery order, before any value sent after this call;
    /// so do the values of a replay buffer, after it.
    ///
    /// `observer` is consumed and handed back, so a caller's new observer reaches the list
    /// and the returned ``Disposable`` without a retain and release of its own.
    @inlinable @discardableResult
    func add(
        _ observer: consuming Observer<Value>,
        initial: (() -> Value)? = nil,
        skippingPrefix: Bool = false
    ) -> Observer<Value> {
        // `prefix` is set while the operator is built, before the core has observers.
        if initial != nil || (!skippingPrefix && prefix != nil) {
            return add(observer, catchingUpWith: initial ?? prefix.map { value in { value } })
        }
        delivery.lock.lock()
        // `replay`, too, is set once before the core had observers; it is only compared
        // here, so the common path (no replay) retains nothing. Only an active core takes
        // this path (one compare); the others are handled out of line.
        if !lifecycle.isActive || self.replay != nil {
            delivery.lock.unlock()
            return add(observer, catchingUpWith: nil)
        }
        observers.append(copy observer)
        observersChanged()
        retainItselfIfUnowned()
        observer.register(on: self)
        let starting = start
        start = nil
        delivery.lock.unlock()
        starting?()
        return observer
    }

    /// Registers `observer` that first gets `initial` and the replayed values, if any (see
    /// `add(_:initial:skippingPrefix:)`); out of line, so that the common path stays small.
    @inlinable @inline(never)
    func add(_ observer: Observer<Value>, catchingUpWith initial: (() -> Value)?) -> Observer<Value> {
        delivery.lock.lock()
        if lifecycle.isTerminating {
            addAfterCompletion(observer, initial: initial)
            return observer
        }
        observers.append(observer)
        observersChanged()
        retainItselfIfUnowned()
        observer.register(on: self)
        let starting = start
        start = nil
        guard initial != nil || self.replay != nil else {
            delivery.lock.unlock()
            starting?()
            return observer
        }
        // Delivered to this observer alone, in its turn: held until then, as the observer
        // may be disposed and let go meanwhile (retired observers are released before
        // queued work runs).
        let replay = self.replay
        let entered = enterDeliveryLocked(releasing: ()) {
            joining.append(observer)
            queue((observer, initial, replay)) { core, entry in
                core.delivery.lock.withLock {
                    core.joining.removeAll { $0 === entry.0 }
                    core.observersChanged()
                }
                Self.catchUp(entry.0, entry.1, entry.2)
            }
        }
        if entered {
            Self.catchUp(observer, initial, replay)
            delivery.leave()
        }
        starting?()
        return observer
    }

    /// Hands a new observer `initial`, then the replayed values, unless it was disposed.
    @inlinable
    static func catchUp(_ observer: Observer<Value>, _ initial: (() -> Value)?, _ replay: ReplayBuffer<Value>?) {
        if let initial, !observer.isDisposed { observer.receive(initial()) }
        replay?.replay(to: observer)
    }

    /// Hands `initial` and the replayed values, then the completion, to an observer that
    /// arrived once a completion was sent. Called with the lock held; unlocks.
    ///
    /// With nothing to hand but the completion, once it was delivered, the observer is
    /// completed at once on this thread: an operator that subscribes to a completed trigger
    /// (`take(until:)`) must see it end before it subscribes to anything else, also from
    /// inside the trigger's own completion handler.
    ///
    /// Values go in a delivery of their own, like any other: at once on this thread when
    /// none is in progress, else queued behind it (as is an observer that arrived while
    /// the completion itself waits). Cores sharing this core's delivery (`map`, `filter`,
    /// ...) deliver in line only inside a delivery, and an observer of theirs may dispose
    /// itself meanwhile: outside one, it would be freed while it runs.
    @usableFromInline
    func addAfterCompletion(_ observer: Observer<Value>, initial: (() -> Value)?) {
        let replay = self.replay
        if initial == nil, replay == nil, lifecycle == .terminated {
            delivery.lock.unlock()
            // Never registered: no one can be disposing it yet.
            if observer.claimDisposal(completing: true) {
                observer.complete()
                observer.clear()
            }
            return
        }
        observer.register(on: self)
        let entered = enterDeliveryLocked(releasing: ()) {
            queue((observer, initial, replay)) { core, entry in core.catchUpAndComplete(entry.0, entry.1, entry.2) }
        }
        if entered {
            // Three arguments, not a tuple: in a debug build a tuple of generic types
            // instantiates metadata, an allocation the benchmarks' thresholds count.
            catchUpAndComplete(observer, initial, replay)
            delivery.leave()
        }
    }

    /// Hands a late observer `initial` and the replayed values (see `catchUp`), then the
    /// completion (see `Observer.complete(registeredOn:)`).
    @inlinable
    func catchUpAndComplete(_ observer: Observer<Value>, _ initial: (() -> Value)?, _ replay: ReplayBuffer<Value>?) {
        Self.catchUp(observer, initial, replay)
        observer.complete(registeredOn: self)
    }

    /// Removes a disposed observer; it is cleared now, or when the delivery in progress
    /// ends. Called by the caller that claimed its disposal, through a reference it does
    /// not own, so nothing here may let the core go while it runs: the result says what
    /// the caller does once this returns (see `Removal`), and the short path leaves the
    /// clearing to the caller too, as clearing frees closures that may hold the core's last
    /// owner.
    @inlinable
    func remove(_ observer: Observer<Value>) -> Removal {
        delivery.lock.lock()
        // The newest observer is the likeliest to leave first: look from the end.
        var index = observers.count - 1
        while index >= 0, observers[index] !== observer { index -= 1 }
        guard index >= 0 else { return finishRemoving(observer, listed: false) }
        if index == observers.count - 1 {
            observers.removeLast()
        } else {
            observers.remove(at: index)
        }
        observersChanged()
        // The common case, kept small: no delivery in progress, no snapshot to drop, and
        // the core still in use (so it cannot detach, and keeps its own retain, if any,
        // for the observers left).
        if !delivery.isDelivering, snapshot.isEmpty, !observers.isEmpty || lifecycle.owners > 0 {
            delivery.lock.unlock()
            return .clearObserver
        }
        return finishRemoving(observer, listed: true)
    }

    /// The rest of `remove(_:)` when a delivery is in progress, the snapshot holds
    /// observers, the core may detach, or `observer` was not listed (the completion took
    /// it, or it arrived late). Called with the lock held; unlocks.
    ///
    /// What it lets go of after unlocking (the observer's closures, a dropped snapshot,
    /// the subscriptions of a detached core) may hold the core's last owner, so it holds
    /// the core meanwhile, and hands that retain to the caller with the result.
    @inlinable @inline(never)
    func finishRemoving(_ observer: Observer<Value>, listed: Bool) -> Removal {
        var dropped: [Observer<Value>]?
        let delivering = delivery.isDelivering
        if delivering {
            delivery.retired.append(Delivery.Retired(observer: observer, core: self))
        } else if !snapshot.isEmpty {
            dropped = replaceSnapshot()
        }
        let detach = observers.isEmpty && lifecycle.owners <= 0 ? takeUpstreamsIfUnused() : nil
        // An unlisted observer changed nothing, and the core retains itself only while it
        // has observers.
        assert(listed || !(observers.isEmpty && retainsItself), "a core without observers retains itself")
        let releasesItself = listed && observers.isEmpty && retainsItself
        if releasesItself { retainsItself = false }
        _ = Unmanaged.passRetained(self)
        delivery.lock.unlock()
        if !delivering { observer.clear() }
        withExtendedLifetime(dropped) {}
        detach?.dispose()
        return listed ? .release(withOwnRetain: releasesItself) : .settleLoanAndRelease
    }

    /// Keeps `disposable` (a subscription to a source) until this core detaches.
    @inlinable
    func addUpstream(_ disposable: Disposable) {
        delivery.lock.lock()
        let detached = lifecycle.isDetached
        if !detached { upstreams.append(disposable) }
        delivery.lock.unlock()
        if detached { disposable.dispose() }
    }

    /// A public wrapper (a ``Signal`` or ``Property``) now refers to this core, which no
    /// longer needs to retain itself for its observers.
    @inlinable
    func retainOwner() {
        _ = retainOwner(unlessDetached: false)
    }

    /// Counts a new wrapper as an owner, as `retainOwner()`, unless `unlessDetached` and the
    /// core has detached (or terminated), in one step; returns whether it did.
    @inlinable
    func retainOwner(unlessDetached: Bool) -> Bool {
        delivery.lock.lock()
        if unlessDetached, lifecycle.isDetached {
            delivery.lock.unlock()
            return false
        }
        lifecycle.changeOwners(by: 1)
        let releasesItself = retainsItself && lifecycle.owners > 0
        if releasesItself { retainsItself = false }
        delivery.lock.unlock()
        // The caller, making the wrapper, holds the core: this is never the last release.
        if releasesItself { Unmanaged.passUnretained(self).release() }
        return true
    }

    /// A public wrapper went away; with no observers left the core stops listening
    /// upstream, and with observers it retains itself for them.
    @inlinable
    func releaseOwner() {
        delivery.lock.lock()
        lifecycle.changeOwners(by: -1)
        let detach = takeUpstreamsIfUnused()
        if !observers.isEmpty { retainItselfIfUnowned() }
        delivery.lock.unlock()
        detach?.dispose()
    }

    /// Retains the core for its observers when no wrapper refers to it any more, so that
    /// a listed observer's core is alive until the observer leaves the list. Called with
    /// the lock held, when the core has observers.
    @inlinable
    func retainItselfIfUnowned() {
        if !retainsItself, lifecycle.owners <= 0 {
            retainsItself = true
            _ = Unmanaged.passRetained(self)
        }
    }

    /// Detaches the core when nothing refers to it any more: no owner and no observer.
    /// Called with the lock held; returns the subscriptions to dispose, and the work that
    /// never started (it may hold sources), for the caller to let go after unlocking.
    @inlinable
    func takeUpstreamsIfUnused() -> Detachment? {
        guard lifecycle.owners <= 0, observers.isEmpty, lifecycle.detach() else { return nil }
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
        carryingPrefix: ((Value) -> Void)? = nil,
        skippingLeadOfPair: Bool = false
    ) {
        if let carryingPrefix, let prefix { carryingPrefix(prefix) }
        subscribe(
            output, value: value, completed: completed, skippingPrefix: carryingPrefix != nil,
            skippingLeadOfPair: skippingLeadOfPair)
    }

    /// Registers the observer that feeds `output` (see `forward`), kept by `output`.
    @inlinable
    func subscribe<Output>(
        _ output: SignalCore<Output>,
        value: @escaping (Value) -> Void,
        completed: (() -> Void)?,
        skippingPrefix: Bool,
        skippingLeadOfPair: Bool = false
    ) {
        let observer = ForwardObserver<Value>(onValue: value, onCompleted: completed ?? { output.sendCompleted() })
        observer.skipsLeadOfPair = skippingLeadOfPair
        output.addUpstream(add(observer, skippingPrefix: skippingPrefix))
    }
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

/// What the caller of `SignalCore.remove(_:)` does once it returns: `remove` runs on a
/// core the caller does not own a reference to, so it never lets the core go itself.
@usableFromInline
enum Removal {
    /// The observer left the list; the caller clears it.
    case clearObserver
    /// The observer left the list and was dealt with; the caller releases the hold
    /// `remove` took while it let go of things and, `withOwnRetain` when this was the last
    /// observer of an unowned core, the core's own retain.
    case release(withOwnRetain: Bool)
    /// The observer was not listed: the completion took it, or it arrived late and its
    /// catch-up is on its way. The caller releases the hold `remove` took, and settles the
    /// loan (`Observer.settleLentCore(_:)`).
    case settleLoanAndRelease
}
