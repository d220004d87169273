import Observation
import Synchronization

/// One step of a property change, as it travels between properties.
///
/// A change of a root property reaches every dependent in two passes: first
/// `invalidate`, then `changed` or `unchanged`. A property with several inputs waits
/// until every invalidated input has settled and then emits once, so derived state
/// never shows an intermediate combination (no glitches).
@usableFromInline
enum Change<Value> {
    case invalidate
    case changed(Value)
    case unchanged
}

extension Change: Sendable where Value: Sendable {}

extension Change {
    /// The value of a `changed` step; nil for the others.
    var value: Value? {
        if case .changed(let value) = self { value } else { nil }
    }
}

/// The shared machinery of a property: how to read its value and where its changes go.
// Safe to share: `read` is set once, `changes` is guarded by `lock`, the core guards itself.
@usableFromInline
final class PropertyNode<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let core: SignalCore<Change<Value>>
    @usableFromInline let read: () -> Value
    /// Whether a property fed by a signal (a `Follower`) is among this one's sources, or is
    /// this one: then what combines it waits for the end of a root's change (`Propagation`).
    @usableFromInline let isFedBySignal: Bool
    /// Whether root changes are tracked now (`Propagation`), kept here to be read in line.
    @usableFromInline let gate = Propagation.gate
    @usableFromInline let lock = SpinLock()
    /// The core of `signal`. It is not owned here: once nobody holds or observes it, it
    /// detaches from this node, and the next `signal` makes another. (Owned, it would keep
    /// this node observed, and a node fed by a subscription of its own would never let go
    /// of it.)
    @usableFromInline var changes: SignalCore<Value>?
    /// How a combined pair was made (a `CombinedPair`), for its `map`.
    @usableFromInline let pair: AnyObject?

    @usableFromInline
    init(
        core: SignalCore<Change<Value>> = SignalCore(), isFedBySignal: Bool = false, read: @escaping () -> Value,
        pair: AnyObject? = nil
    ) {
        self.core = core
        self.read = read
        self.isFedBySignal = isFedBySignal
        self.pair = pair
        core.committed = .changed(read())
    }

    /// The signal of later changes: the one in use, or a new one.
    @inlinable
    var signal: Signal<Value> {
        lock.withLock {
            if let changes, changes.retainOwner(unlessDetached: true) { return Signal(owning: changes) }
            // Sharing the node's delivery: a change reaches the signal's observers inside it,
            // with no lock of its own.
            let output = SignalCore<Value>(sharingDeliveryOf: core)
            let made = Signal<Value>(core: output)
            // Acting on changes only, it skips the lead of a root's pair, as a plain observer does.
            core.forward(
                to: output, value: { if case .changed(let value) = $0 { output.sendInDelivery(value) } },
                skippingLeadOfPair: true)
            changes = output
            return made
        }
    }

    /// Registers an observer that gets the current value first, then every change.
    @inlinable
    func observe(_ action: @escaping @Sendable (Value) -> Void) -> Observer<Change<Value>> {
        core.addObservingCommitted(
            ClosureObserver(
                onValue: { if case .changed(let value) = $0 { action(value) } },
                onCompleted: nil
            ))
    }
}

/// A read-only value that changes over time and tells its observers.
///
/// `observe` delivers the current value at once, then every change; `signal` carries the
/// changes only. Derived properties (`map`, `skipRepeats`, `Property.combineLatest`) keep
/// their sources alive and are glitch-free: one change of a source produces exactly one
/// consistent emission of everything derived from it.
///
/// ```swift
/// let count = MutableProperty(1)
/// let label: Property<String> = count.map { "\($0) homes" }
/// label.observe { print($0) }   // prints "1 homes"
/// count.value = 2               // prints "2 homes"
/// ```
///
/// Values cross threads, so they are `Sendable`; `observe` runs on the thread that
/// changes the property, `observeOnMainActor` and bindings on the main actor.
///
/// A property is `Observable`: reading `value` inside `withObservationTracking` (a SwiftUI
/// view's `body`, say) is tracked, and its `onChange` runs once the property changes.
///
/// ```swift
/// withObservationTracking { print(label.value) } onChange: { print("label changed") }
/// count.value = 3   // prints "label changed", on this thread
/// ```
// Safe to share: the node guards its own state; `sources` is set once; `observation` is
// set once, atomically.
public class Property<Value: Sendable>: Observable, @unchecked Sendable {
    @usableFromInline let node: PropertyNode<Value>
    /// What this property keeps alive: its inputs (a map of a combined pair takes the pair's).
    @usableFromInline let sources: [AnyObject]
    /// What tells `withObservationTracking` of changes, made by the first read of `value`.
    private let observation = AtomicLazyReference<PropertyObservation>()

    @usableFromInline
    init(node: PropertyNode<Value>, sources: [AnyObject]) {
        self.node = node
        self.sources = sources
        node.core.retainOwner()
    }

    deinit {
        node.core.releaseOwner()
    }

    /// A read-only view of `property` that keeps it alive.
    public convenience init(_ property: Property<Value>) {
        self.init(node: property.node, sources: [property])
    }

    /// A property that always holds `value`.
    public convenience init(value: Value) {
        self.init(node: PropertyNode(read: { value }), sources: [])
        node.core.sendCompleted()
    }

    /// The current value.
    ///
    /// Read inside `withObservationTracking`, it is tracked: `onChange` runs on the thread
    /// that changes the property, once the new value can be read, and only for a real change
    /// (an equal value a derived property skips does not count).
    public var value: Value {
        // The first read makes the registrar and observes the property for it: a property
        // whose `value` is never read pays nothing for observation, and its changes stay as
        // fast as ever. (No public API tells whether tracking is on, so every later change
        // of a read property notifies the registrar.) Of first reads racing, one
        // observation is kept; the others are freed at once and let go of what they
        // observed. The framework's own reads (operators, `Action`) call `node.read()`.
        let observation = self.observation.load() ?? self.observation.storeIfNil(PropertyObservation(node))
        observation.registrar.access(TrackedValue(), keyPath: \.value)
        return node.read()
    }

    /// The changes from now on, without the current value.
    @inlinable
    public final var signal: Signal<Value> {
        node.signal
    }

    /// Calls `action` with the current value at once, then with every change.
    ///
    /// Changes are delivered on the thread that makes them.
    ///
    /// The current value is delivered on the calling thread before `action` is
    /// registered, so it never waits for a delivery in progress (nor makes one wait); a
    /// change made meanwhile, even by `action` itself, is not missed: `action` then gets the
    /// newer value before it is registered. Values always arrive in order.
    @inlinable @discardableResult
    public func observe(_ action: @escaping @Sendable (Value) -> Void) -> Disposable {
        node.observe(action)
    }

    /// Calls `action` on the main actor with the current value, then with every change.
    ///
    /// Called on the main actor, `action` gets the current value before this returns; a
    /// change made on the main actor is delivered synchronously unless earlier ones are
    /// still queued, and a change made elsewhere is queued to the main actor, in order.
    ///
    /// ```swift
    /// logic.isLoading.observeOnMainActor { loading in spinner.isHidden = !loading }
    /// ```
    @discardableResult
    public func observeOnMainActor(_ action: @escaping @MainActor (Value) -> Void) -> Disposable {
        node.core.addObservingCommitted(MainActorObserver<Change<Value>, Value>(extract: { $0.value }, action))
    }
}

/// What a property tells `withObservationTracking` its changes through (`Property.value`):
/// a registrar of its own, told of each change by an observer of the property, which it
/// disposes when freed (with the property).
final class PropertyObservation: Sendable {
    let registrar = ObservationRegistrar()
    private let subscription: Disposable

    /// It observes before it is shared, so no change after a tracked read is missed.
    init<Value>(_ node: PropertyNode<Value>) {
        subscription = node.observe { [registrar] _ in registrar.withMutation(of: TrackedValue(), keyPath: \.value) {} }
    }

    deinit { subscription.dispose() }
}

/// The subject and key path reads and changes are registered under: a registrar stands for
/// one property, so one key path does (the registrar keys on it alone).
struct TrackedValue: Observable { var value: Void { () } }

/// A property whose value can be set; every set is delivered to its observers.
///
/// Setting is thread-safe; observers of one property never run concurrently.
/// Freeing the property completes its `signal` and releases its observers.
// Safe to share: `storage` is read and written only under the core's lock.
public final class MutableProperty<Value: Sendable>: Property<Value>, @unchecked Sendable {
    // Safe to share: `value` is read and written only under the property core's lock.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline @exclusivity(unchecked) var value: Value
        @usableFromInline init(_ value: Value) { self.value = value }
    }

    @usableFromInline let storage: Storage

    /// Creates a property holding `initialValue`.
    public init(_ initialValue: Value) {
        let storage = Storage(initialValue)
        let core = SignalCore<Change<Value>>()
        self.storage = storage
        super.init(node: PropertyNode(core: core, read: { core.withLock { storage.value } }), sources: [])
    }

    deinit {
        node.core.sendCompleted()
    }

    /// The current value, which notifies every observer when set.
    @inlinable
    public override var value: Value {
        get { super.value }
        set {
            // Whether the change is tracked (`Propagation`) is one load in line; a tracked
            // delivery runs out of line.
            let storage = self.storage
            node.core.send(trackedBy: node.gate) {
                storage.value = newValue
                return (.invalidate, .changed(newValue))
            }
        }
    }

    /// Changes the value in place in one atomic step, notifies once, and returns what
    /// `body` returns.
    ///
    /// No set from another thread can come between the read and the write, so concurrent
    /// calls never lose an update. Every call is one change, delivered as a set is: once,
    /// even when `body` makes several changes, leaves the value as it was, or throws (the
    /// value then keeps what `body` wrote before it threw). `body` runs under the
    /// property's lock and must not touch any property; observers run after it, outside
    /// the lock, before this returns.
    ///
    /// ```swift
    /// let inFlight = MutableProperty(0)
    /// inFlight.modify { $0 += 1 }
    /// let ticket = counter.modify { value in
    ///     value += 1
    ///     return value
    /// }
    /// ```
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let storage = self.storage
        func change() -> Swift.Result<Result, Failure> {
            Swift.Result { () throws(Failure) in try body(&storage.value) }
        }
        var outcome: Swift.Result<Result, Failure>?
        node.core.send(trackedBy: node.gate) {
            outcome = change()
            return (.invalidate, .changed(storage.value))
        }
        // `send` skips its closure only while the property is being freed, when nobody
        // can call this; then `body` still runs under the lock, unseen.
        return try (outcome ?? node.core.withLock(change)).get()
    }

    /// Atomically replaces the value with `transform(value)` unless it returns nil, and
    /// tells whether it did. `transform` runs under the property's lock: it must not touch
    /// any property.
    @discardableResult
    func update(_ transform: (Value) -> Value?) -> Bool {
        let storage = self.storage
        return node.core.send(trackedBy: node.gate) {
            guard let newValue = transform(storage.value) else { return nil }
            storage.value = newValue
            return (.invalidate, .changed(newValue))
        }
    }
}
