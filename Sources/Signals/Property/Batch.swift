import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes the changes `body` makes to properties one change of everything combined from them.
///
/// Each property set inside `body` changes at once (its own observers, and everything
/// derived from it alone with `map`, see it at once), but a property combined from several
/// sources (`Property.combineLatest`, and what is derived from it) changes once, when
/// `body` returns, with every new value: one intent, one derived change.
///
/// ```swift
/// withBatchedChanges {
///     isLoading.value = false
///     problem.value = error
/// }
/// // Property.combineLatest(isLoading, problem) changed once: (false, error)
/// ```
///
/// Batches nest: the outermost one ends them (or, for a batch opened inside a property's
/// change, that change's end). A batch covers the changes made on its own thread; a change
/// made meanwhile on another thread travels as always, except that a combination this batch
/// holds sends it with the rest, when the batch ends.
///
/// - Returns: What `body` returns.
@discardableResult
public func withBatchedChanges<Result>(_ body: () throws -> Result) rethrows -> Result {
    let propagation = Propagation.current
    Propagation.gate.count.add(1, ordering: .relaxed)
    propagation.enter()
    propagation.batches += 1
    defer {
        propagation.batches -= 1
        propagation.leave()
        Propagation.gate.count.subtract(1, ordering: .relaxed)
    }
    return try body()
}

/// How many signal-fed properties exist, plus how many batches are open: while none do,
/// no root change needs tracking.
///
/// Every property node keeps a reference to the one gate, so that a root's change reads it
/// with one load in line; reading a global from a client module would call its accessor,
/// which cost a retain and a release of the property around every set.
// Safe to share: its only state is an atomic.
@usableFromInline
final class PropagationGate: Sendable {
    @usableFromInline let count = Atomic<Int>(0)

    /// Whether a root's change must be a propagation now: a root then enters
    /// `Propagation.current` before it sends, and leaves it after.
    @inlinable
    var isOpen: Bool {
        count.load(ordering: .relaxed) > 0
    }
}

/// The changes in progress on one thread: how deep in property sends (and batches) it is,
/// and the combined properties waiting to change once the outermost one ends.
///
/// A combined property emits once every input it saw invalidated has settled. A property
/// fed by a signal (`Property(initial:then:)`, `flatMapLatest`, `zip`) is invalidated only
/// when its signal sends, which may come later in the same change of a root (the signal is
/// derived from that root): settling early would show a stale pair. So, while any such
/// property exists or a batch is open, a root's change is a propagation on its thread, and a
/// combined property that settles inside one waits for its end to emit, with every value
/// that changed meanwhile.
///
/// The check costs one relaxed atomic load per root change while neither exists (the
/// benchmarks' case); otherwise one thread-local lookup.
// Safe to share: not shared; each instance is reached only through its own thread's slot.
@usableFromInline
final class Propagation: @unchecked Sendable {
    /// Whether root changes must be tracked at all (see ``PropagationGate``).
    @usableFromInline static let gate = PropagationGate()

    private var depth = 0
    /// How many batches are open on this thread.
    var batches = 0
    private var waiting: [() -> Void] = []
    private var next = 0

    /// Whether a combined property settling on this thread now should wait for the end of
    /// the propagation (see ``wait(_:)``): inside a batch, or inside a root's change when an
    /// input is fed by a signal. Decided by the property's own graph and this thread's
    /// batches only, so that when a combination emits never depends on unrelated objects.
    @usableFromInline
    static func shouldWait(fedBySignal: Bool) -> Bool {
        guard gate.isOpen else { return false }
        let propagation = current
        return propagation.depth > 0 && (fedBySignal || propagation.batches > 0)
    }

    @usableFromInline
    func enter() {
        depth += 1
    }

    /// Leaves one level; leaving the outermost runs what waited, in the order it waited,
    /// including what waits meanwhile.
    @usableFromInline
    func leave() {
        defer { depth -= 1 }
        guard depth == 1, next < waiting.count else { return }
        // Still inside while the waiting run: a combined property they settle waits too,
        // behind them, and a change they make is a nested one.
        while next < waiting.count {
            let emit = waiting[next]
            next += 1
            emit()
        }
        waiting.removeAll(keepingCapacity: true)
        next = 0
    }

    /// Runs `emit` when the outermost propagation on this thread ends.
    @usableFromInline
    func wait(_ emit: @escaping () -> Void) {
        waiting.append(emit)
    }

    /// This thread's propagation, made on first use.
    @usableFromInline
    static var current: Propagation {
        if let slot = pthread_getspecific(key) {
            return Unmanaged<Propagation>.fromOpaque(slot).takeUnretainedValue()
        }
        let made = Propagation()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
            pthread_key_create(&key) { Unmanaged<Propagation>.fromOpaque($0).release() }
        #else
            pthread_key_create(&key) { $0.map { Unmanaged<Propagation>.fromOpaque($0).release() } }
        #endif
        return key
    }()
}
