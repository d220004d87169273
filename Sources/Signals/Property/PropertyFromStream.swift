extension Property {
    /// A property that holds `initial` until `values` sends, then each value it sends.
    ///
    /// It is a property like any derived one (see the contract's "Properties fed by
    /// signals"):
    /// - Glitch-free: combined with anything derived from the same source, it never shows a
    ///   stale pair, even when `values` is derived (synchronously: `map`, `filter`, not
    ///   `observe(on:)`) from that source's `signal`.
    /// - Kept like `map`: it lives while it is kept or observed, and so does its observation
    ///   of `values`; it completes when `values` completes, keeping the last value.
    /// - It observes `values` from now on, not from its first observer: `value` must be
    ///   current even before anyone observes, and a hot signal's values sent meanwhile would
    ///   be lost. For work that should wait for a subscriber, hand it a signal that starts
    ///   its work on observation, and observe the property only when it is needed.
    ///
    /// Changes reach observers on the thread `values` sends from.
    ///
    /// ```swift
    /// let status = Property(initial: "idle", then: uploads.map { "\($0.count) sent" })
    /// ```
    /// Of an `Equatable` type, a value equal to the last one it notified is skipped, as
    /// `map` skips it.
    public convenience init(initial: Value, then values: Signal<Value>) {
        self.init(initial: initial, then: values, isEquivalent: equalityIfEquatable(Value.self))
    }

    private convenience init(
        initial: Value, then values: Signal<Value>, isEquivalent: (@Sendable (Value, Value) -> Bool)?
    ) {
        let follower = Follower(initial)
        // Touched only inside the deliveries of `values`, which never overlap.
        let last = StateCell(initial)
        // The observations live as long as the property is kept or observed.
        follower.node.core.addUpstream(
            values.observe { value in
                if let isEquivalent {
                    guard !isEquivalent(last.value, value) else { return }
                    last.value = value
                }
                follower.set(value)
            })
        follower.node.core.addUpstream(values.observeCompleted { follower.node.core.sendCompleted() })
        self.init(node: follower.node, sources: [])
    }

    /// A property that follows the property `transform` makes from this one's value.
    ///
    /// It follows that property's changes until this one changes, then follows the
    /// property made from the new value.
    ///
    /// ```swift
    /// let rows: Property<[Row]> = selectedFolder.flatMapLatest { folder in folder.rows }
    /// ```
    ///
    /// `transform` runs on the thread that changes this property, for every change, and
    /// twice for the value current when the property is made (once to read the first
    /// value, once to follow it), so it should only make or look up a property.
    ///
    /// Like ``init(initial:then:)`` it is glitch-free, kept like `map`, and follows from
    /// now on.
    /// Of an `Equatable` type, a switch or change to the value it holds is skipped.
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Property<Output>
    ) -> Property<Output> {
        let followed = currentAndChangesOnce().flatMapLatest { transform($0).currentAndChangesOnce() }
        return Property<Output>(initial: transform(node.read()).node.read(), then: followed)
    }

    /// A signal of the current value, then every change.
    ///
    /// Each observer first gets the value current when it starts observing (``signal``
    /// carries the changes only). It is for operators that need a value before the first change, in place of
    /// `property.signal.prefix(value: property.value)`, whose prefix is the value when the
    /// chain was built:
    ///
    /// ```swift
    /// let submissions = submitTaps.withLatest(from: form.currentAndChanges)
    /// let pages = Signal.combineLatest(query.currentAndChanges, kind.currentAndChanges)
    /// ```
    public var currentAndChanges: Signal<Value> {
        currentAndChangesOnce().share(replay: 1)
    }

    /// The current value, then every change, for the first observer of the returned signal
    /// (a new signal per call); it completes with the property.
    ///
    /// It holds the property's node, not the property: like a `map`, what follows a
    /// property is kept by its source's observers, and it must not keep the source's
    /// wrapper (a ``MutableProperty``, which completes when freed) alive.
    ///
    /// Until its first observer arrives, the signal counts as an owner of the node, so that
    /// the node of a temporary (`a.map(f).currentAndChanges`, its wrapper freed at once)
    /// stays attached to its sources; from then on its observer keeps it so.
    func currentAndChangesOnce() -> Signal<Value> {
        let node = self.node
        node.core.retainOwner()
        let untilObserved = Signal<Change<Value>>(owning: node.core)
        return Signal { input in
            withExtendedLifetime(untilObserved) {}
            return node.core.addObservingCommitted(
                ClosureObserver(
                    onValue: { if case .changed(let value) = $0 { input.send(value) } },
                    onCompleted: { input.sendCompleted() }))
        }
    }
}

/// `==` of `Value` when it is `Equatable` (so that a property made in generic code skips
/// equal values too), else nil. The conformance is looked up once; each comparison casts
/// the two values to the concrete type, boxing neither.
func equalityIfEquatable<Value: Sendable>(_ type: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
    guard let equatable = type as? any (Equatable & Sendable).Type else { return nil }
    return equatable.equality(as: Value.self)
}

extension Equatable where Self: Sendable {
    /// `==`, for values the caller knows to be of this type.
    fileprivate static func equality<Value>(as type: Value.Type) -> @Sendable (Value, Value) -> Bool {
        { first, second in
            guard let first = first as? Self, let second = second as? Self else { return false }
            return first == second
        }
    }
}
