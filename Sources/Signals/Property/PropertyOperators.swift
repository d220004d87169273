extension Property {
    /// A property whose value is `transform` of this one's, updated with every change.
    ///
    /// `transform` runs once per change and on each read of `value`, on any thread.
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Property<Output> {
        mapped(transform, isEquivalent: nil)
    }

    /// A property whose value is `transform` of this one's, notifying only real changes.
    ///
    /// It notifies only when the result differs from the last one it notified, so derived
    /// state never repeats itself (an observer that writes back cannot loop on equal
    /// values).
    public func map<Output: Sendable & Equatable>(
        _ transform: @escaping @Sendable (Value) -> Output
    ) -> Property<Output> {
        mapped(transform, isEquivalent: ==)
    }

    /// A property with the same value that notifies only when `isEquivalent` sees a change.
    ///
    /// `isEquivalent(last, new)` compares the new value with the last one it notified.
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Property<Value> {
        mapped({ $0 }, isEquivalent: isEquivalent)
    }

    private func mapped<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Output,
        isEquivalent: (@Sendable (Output, Output) -> Bool)?
    ) -> Property<Output> {
        let source = node
        let derived = PropertyNode<Output>(isFedBySignal: source.isFedBySignal, read: { transform(source.read()) })
        let output = derived.core
        let last = StateCell<Output?>(isEquivalent == nil ? nil : derived.read())
        source.core.forward(
            to: output,
            value: { change in
                switch change {
                case .invalidate:
                    output.send(.invalidate)
                case .changed(let value):
                    let mapped = transform(value)
                    if let isEquivalent, let previous = last.value {
                        if isEquivalent(previous, mapped) {
                            output.send(.unchanged)
                            return
                        }
                        last.value = mapped
                    }
                    output.send(.changed(mapped), committing: true)
                case .unchanged:
                    output.send(.unchanged)
                }
            })
        return Property<Output>(node: derived, sources: [self])
    }

    /// A property of the latest values of `first` and every one of `others`, as a flat tuple.
    ///
    /// `Property.combineLatest(a, b, c)` is a `Property<(A, B, C)>`. One change of a source shared by several inputs produces one emission, never an
    /// intermediate combination. Completes when every input has completed.
    ///
    /// ```swift
    /// let form = Property.combineLatest(username, password, accepted)
    /// form.observe { name, password, accepted in print(name, accepted) }
    /// ```
    public static func combineLatest<each Other: Sendable>(
        _ first: Property<Value>,
        _ others: repeat Property<each Other>
    ) -> Property<(Value, repeat each Other)> {
        combined(first, repeat each others, equalities: nil)
    }

    /// A property of the latest values of `first` and every one of `others`, as a flat tuple.
    ///
    /// With `Equatable` inputs it notifies only when the combination actually changes.
    public static func combineLatest<each Other: Sendable & Equatable>(
        _ first: Property<Value>,
        _ others: repeat Property<each Other>
    ) -> Property<(Value, repeat each Other)> where Value: Equatable {
        var equalities = [equality(of: first)]
        for other in repeat each others { equalities.append(equality(of: other)) }
        return combined(first, repeat each others, equalities: equalities)
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
        let zipped = Follower((first.value, repeat (each others).value))
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
        let follower = setup.makeFollower { value }
        // The subscription lives as long as the follower is kept or observed.
        follower.node.core.addUpstream(subscription)
        return Property(node: follower.node, sources: [self])
    }

    private static func combined<each Other: Sendable>(
        _ first: Property<Value>,
        _ others: repeat Property<each Other>,
        equalities: [Equality]?
    ) -> Property<(Value, repeat each Other)> {
        var readers: [@Sendable () -> any Sendable] = [{ first.node.read() }]
        var sources: [AnyObject] = [first]
        var isFedBySignal = first.node.isFedBySignal
        for other in repeat each others {
            let node = other.node
            readers.append { node.read() }
            sources.append(other)
            isFedBySignal = isFedBySignal || node.isFedBySignal
        }
        let read: @Sendable () -> (Value, repeat each Other) = { [readers] in
            tuple(readers.map { $0() }, as: Value.self, repeat (each Other).self)
        }
        let derived = PropertyNode(isFedBySignal: isFedBySignal, read: read)
        let output = derived.core
        let state = StateCell(CombineState(latest: readers.map { $0() }, equalities: equalities))
        state.value.isFedBySignal = isFedBySignal
        let build: ([any Sendable]) -> (Value, repeat each Other) = {
            tuple($0, as: Value.self, repeat (each Other).self)
        }
        // Known before attaching: an input that has completed already completes at once,
        // while it is attached, and the last completion must find the count to compare.
        state.value.inputs = readers.count
        let step = CombineState.stepping(state, build: build, output: output)
        CombineState.attach(first.node.core, at: 0, to: output, step: step)
        var index = 1
        for other in repeat each others {
            CombineState.attach(other.node.core, at: index, to: output, step: step)
            index += 1
        }
        return Property<(Value, repeat each Other)>(node: derived, sources: sources)
    }
}

extension Property where Value: Equatable {
    /// A property with the same value that notifies only when the value actually changes.
    public func skipRepeats() -> Property<Value> {
        skipRepeats(==)
    }
}

/// Compares two type-erased values of one input of a combined property.
typealias Equality = (any Sendable, any Sendable) -> Bool

private func equality<Input: Equatable>(of property: Property<Input>) -> Equality {
    { ($0 as? Input) == ($1 as? Input) }
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

/// One step of an input of a combined property, as the combining state sees it.
enum CombineEvent {
    case invalidate
    case changed(Int, any Sendable)
    case unchanged
    case completed
    /// The propagation the property waited for has ended (see `Propagation`).
    case propagationEnded
}

/// The bookkeeping of `Property.combineLatest`: how many inputs are invalidated and not
/// settled yet, and whether any of them changed.
struct CombineState {
    /// Subscribes `output` to the input property `core`, the one at `index`: each of its
    /// steps goes to `step` inside `output`'s serialized section. Set `inputs` first: an
    /// input that has completed completes while it is attached.
    static func attach<Input: Sendable, Combined>(
        _ core: SignalCore<Change<Input>>, at index: Int, to output: SignalCore<Change<Combined>>,
        step: @escaping (CombineEvent) -> Void
    ) {
        core.forward(
            to: output,
            value: { change in
                switch change {
                case .invalidate: output.serialize(.invalidate, step)
                case .changed(let value): output.serialize(.changed(index, value), step)
                case .unchanged: output.serialize(.unchanged, step)
                }
            }, completed: { output.serialize(.completed, step) })
    }

    /// The step function of a combined property: each event goes to `state`; one that
    /// settles it inside a propagation waits for the propagation's end.
    static func stepping<Combined>(
        _ state: StateCell<CombineState>,
        build: @escaping ([any Sendable]) -> Combined,
        output: SignalCore<Change<Combined>>
    ) -> (CombineEvent) -> Void {
        { event in
            guard state.value.step(event, build: build, output: output) else { return }
            Propagation.current.wait {
                output.serialize(.propagationEnded, stepping(state, build: build, output: output))
            }
        }
    }

    /// Each input's latest value, at the input's index.
    var latest: [any Sendable]
    /// The values of the last emission, when inputs are compared (`equalities`).
    var emitted: [any Sendable]
    let equalities: [Equality]?
    var inputs = 0
    var unsettled = 0
    var isChanged = false
    var completions = 0
    /// Settled inside a propagation, and waiting for its end to emit.
    var isWaiting = false
    /// Whether an input is fed by a signal: then it waits for the end of every root
    /// change, not only of a batch.
    var isFedBySignal = false

    init(latest: [any Sendable], equalities: [Equality]?) {
        self.latest = latest
        self.emitted = latest
        self.equalities = equalities
    }

    /// Takes one event; returns true when the property has settled inside a propagation and
    /// must emit at its end (`.propagationEnded`), not now.
    mutating func step<Combined>(
        _ event: CombineEvent,
        build: ([any Sendable]) -> Combined,
        output: SignalCore<Change<Combined>>
    ) -> Bool {
        switch event {
        case .invalidate:
            unsettled += 1
            if unsettled == 1 && !isWaiting { output.emit(.invalidate) }
            return false
        case .changed(let index, let value):
            latest[index] = value
            isChanged = true
        case .unchanged:
            break
        case .completed:
            completions += 1
            guard completions == inputs else { return false }
            // A change waiting for its propagation goes out first: what is derived from this
            // property has counted its `invalidate` and waits for it to settle.
            if isWaiting && unsettled == 0 {
                isWaiting = false
                emit(build: build, output: output)
            }
            output.emitCompleted()
            return false
        case .propagationEnded:
            isWaiting = false
            // An input invalidated again meanwhile (on another thread) settles it later.
            guard unsettled == 0 else { return false }
            emit(build: build, output: output)
            return false
        }
        if unsettled == 0 {
            // A change without its invalidation (an input attached mid-change): treat it
            // as a change of its own.
            if !isWaiting { output.emit(.invalidate) }
        } else {
            unsettled -= 1
            guard unsettled == 0 else { return false }
        }
        if isWaiting { return false }
        if Propagation.shouldWait(fedBySignal: isFedBySignal) {
            isWaiting = true
            return true
        }
        emit(build: build, output: output)
        return false
    }

    /// Sends the settled combination: the change, or that nothing changed.
    private mutating func emit<Combined>(build: ([any Sendable]) -> Combined, output: SignalCore<Change<Combined>>) {
        if isChanged, let equalities {
            isChanged = equalities.indices.contains { !equalities[$0](emitted[$0], latest[$0]) }
            if isChanged { emitted = latest }
        }
        let isChangedNow = isChanged
        let change: Change<Combined> = isChanged ? .changed(build(latest)) : .unchanged
        isChanged = false
        output.emit(change, committing: isChangedNow)
    }
}
