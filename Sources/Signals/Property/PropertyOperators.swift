import Synchronization

extension Property {
    /// A property whose value is `transform` of this one's, updated with every change.
    ///
    /// `transform` runs once per change and on each read of `value`, on any thread.
    @inlinable
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Property<Output> {
        mapped(transform, isEquivalent: nil)
    }

    /// A property whose value is `transform` of this one's, notifying only real changes.
    ///
    /// It notifies only when the result differs from the last one it notified, so derived
    /// state never repeats itself (an observer that writes back cannot loop on equal
    /// values).
    @inlinable
    public func map<Output: Sendable & Equatable>(
        _ transform: @escaping @Sendable (Value) -> Output
    ) -> Property<Output> {
        mapped(transform, isEquivalent: ==)
    }

    /// A property with the same value that notifies only when `isEquivalent` sees a change.
    ///
    /// `isEquivalent(last, new)` compares the new value with the last one it notified.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Property<Value> {
        mapped({ $0 }, isEquivalent: isEquivalent)
    }

    @inlinable
    func mapped<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Output,
        isEquivalent: (@Sendable (Output, Output) -> Bool)?
    ) -> Property<Output> {
        let source = node
        // The derived core shares its source's delivery, as a signal's map does: each change
        // reaches its observers inside the source's delivery, with no lock of its own.
        let derived = PropertyNode<Output>(
            core: SignalCore(sharingDeliveryOf: source.core), isFedBySignal: source.isFedBySignal,
            read: { transform(source.read()) })
        let output = derived.core
        let last = StateCell<Output?>(isEquivalent == nil ? nil : derived.read())
        source.core.forward(
            to: output,
            value: { change in
                switch change {
                case .invalidate:
                    output.sendInDelivery(.invalidate, forLeadTakers: true)
                case .changed(let value):
                    let mapped = transform(value)
                    if let isEquivalent, let previous = last.value {
                        if isEquivalent(previous, mapped) {
                            return output.sendInDelivery(.unchanged, forLeadTakers: true)
                        }
                        last.value = mapped
                    }
                    output.emit(.changed(mapped), committing: true)
                case .unchanged:
                    output.sendInDelivery(.unchanged, forLeadTakers: true)
                }
            })
        return Property<Output>(node: derived, sources: [self])
    }

    /// A property of the current values of `first` and `others`, then of their n-th changes.
    ///
    /// It changes once each input has changed once more. It completes when the pairing
    /// can go on no longer (see `Signal.zip`).
    ///
    /// ```swift
    /// let steps = Property.zip(question, answer)   // (question, its answer), turn by turn
    /// ```
    public static func zip<each Other: Sendable>(
        _ first: Property<Value>,
        _ others: repeat Property<each Other>
    ) -> Property<(Value, repeat each Other)> {
        let zipped = Follower((first.node.read(), repeat (each others).node.read()))
        let pairs = Signal.zip(first.signal, repeat (each others).signal)
        // The subscriptions live as long as the zipped property is kept or observed.
        zipped.node.core.addUpstream(pairs.observe { zipped.set($0) })
        zipped.node.core.addUpstream(pairs.observeCompleted { zipped.node.core.sendCompleted() })
        var sources: [AnyObject] = [first]
        for other in repeat each others { sources.append(other) }
        return Property<(Value, repeat each Other)>(node: zipped.node, sources: sources)
    }

    /// A property that follows this one, taking each change on `scheduler`.
    ///
    /// The current value is taken at once; each new value is taken, and its observers
    /// notified, on `scheduler`.
    ///
    /// ```swift
    /// let shown = logic.state.observe(on: MainScheduler())   // changes only on the main actor
    /// ```
    public func observe(on scheduler: Scheduler) -> Property<Value> {
        // Observing first and making the follower from the newest value delivered so far
        // (under the setup's lock) leaves no moment where a change could be missed.
        let setup = FollowerSetup<Value>()
        let subscription = observe { value in
            guard let follower = setup.follower(orKeep: value) else { return }
            scheduler.schedule { follower.set(value) }
        }
        let follower = setup.makeFollower { node.read() }
        // The subscription lives as long as the follower is kept or observed.
        follower.node.core.addUpstream(subscription)
        return Property(node: follower.node, sources: [self])
    }
}

extension Property where Value: Equatable {
    /// A property with the same value that notifies only when the value actually changes.
    public func skipRepeats() -> Property<Value> {
        skipRepeats(==)
    }
}

/// Builds the tuple `(First, repeat each Rest)` from type-erased values in that order.
///
/// The values come from the inputs of one combining operator, which stores each input's
/// value at the input's index, so every cast matches by construction.
func tuple<First, each Rest>(
    _ values: [any Sendable],
    as first: First.Type,
    _ rest: repeat (each Rest).Type
) -> (First, repeat each Rest) {
    var index = 0
    func next<T>(_ type: T.Type) -> T {
        index += 1
        return values[index - 1] as! T
    }
    return (next(First.self), repeat next((each Rest).self))
}

/// How `Property.observe(on:)` starts following: values delivered before the follower
/// exists are kept (the newest one makes the follower); later ones go to the follower.
// Safe to share: `latest` and `follower` are touched only under `lock`.
final class FollowerSetup<Value: Sendable>: @unchecked Sendable {
    private let lock = SpinLock()
    private var latest: Value?
    private var follower: Follower<Value>?

    /// The follower to update with `value`, or nil after keeping `value` for the follower
    /// still to be made.
    func follower(orKeep value: Value) -> Follower<Value>? {
        var replaced: Value? = value
        let target: Follower<Value>? = lock.withLock {
            if let follower { return follower }
            swap(&replaced, &latest)
            return nil
        }
        withExtendedLifetime(replaced) {} // released after unlocking
        return target
    }

    /// Makes the follower from the newest value kept, or from `current` if none was.
    func makeFollower(else current: () -> Value) -> Follower<Value> {
        let fallback = lock.withLock { latest == nil } ? current() : nil
        var kept: Value?
        let made: Follower<Value> = lock.withLock {
            swap(&kept, &latest)
            let made = Follower(kept ?? fallback!)
            follower = made
            return made
        }
        withExtendedLifetime(kept) {} // released after unlocking
        return made
    }
}

/// The state of a property set by a subscription of its own (`observe(on:)`, `zip`):
/// read under its core's lock and changed in two passes, like a ``MutableProperty``, but
/// completed only when its source completes, not when a wrapper is released.
///
/// While one exists, root changes are tracked as propagations (see `Propagation`): a
/// follower is set from a signal, perhaps in the middle of a change of a root it derives
/// from, and what combines it with that root must wait for it.
final class Follower<Value: Sendable>: Sendable {
    let node: PropertyNode<Value>
    private let storage: MutableProperty<Value>.Storage

    init(_ initial: Value) {
        let storage = MutableProperty<Value>.Storage(initial)
        let core = SignalCore<Change<Value>>()
        self.storage = storage
        node = PropertyNode(core: core, isFedBySignal: true, read: { core.withLock { storage.value } })
        Propagation.gate.count.add(1, ordering: .relaxed)
    }

    deinit {
        Propagation.gate.count.subtract(1, ordering: .relaxed)
    }

    func set(_ value: Value) {
        let storage = self.storage
        node.core.send(trackedBy: node.gate) {
            storage.value = value
            return (.invalidate, .changed(value))
        }
    }
}

/// A weak reference that can be captured by a `@Sendable` closure.
// Safe to share: `object` is a weak reference, which Swift reads and clears atomically.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
    weak let object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
