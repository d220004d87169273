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
        lock.lock()
        // The common case, in line: nothing was queued or removed during the delivery.
        if pendingHead == 0, pending.isEmpty, retired.isEmpty {
            isDelivering = false
            lock.unlock()
            return
        }
        leaveWithWork()
    }

    /// `leave()` once work was queued or observers removed; called with the lock held.
    @usableFromInline @inline(never)
    func leaveWithWork() {
        while runNextTurn() { lock.lock() }
    }

    /// Runs one queued item, or ends the delivery and returns false. Called with the lock
    /// held; returns with it released, and with everything the turn let go (observers,
    /// snapshots, finished work) already freed: their deinits run user code, which may
    /// lock this delivery, so they must not run after the caller locks again. (A debug
    /// build frees a loop's locals at the end of the iteration, after a re-lock placed
    /// there: a core freed then spun on its own delivery's lock, found by the concurrent
    /// model check.)
    private func runNextTurn() -> Bool {
        var finishedWork: ContiguousArray<() -> Void> = []
        if pendingHead >= 64, pendingHead * 2 >= pending.count {
            finishedWork = pending
            pending = ContiguousArray(finishedWork[pendingHead...])
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
            return true
        }
        isDelivering = false
        var done = ContiguousArray<() -> Void>()
        swap(&done, &pending)
        pendingHead = 0
        lock.unlock()
        for entry in removed { entry.observer.clear() }
        withExtendedLifetime((done, removed, snapshots, finishedWork)) {}
        return false
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
