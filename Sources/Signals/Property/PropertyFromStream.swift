extension Property {
    /// A property that holds `initial` until `values` sends, then each value it sends.
    ///
    /// The property observes `values` from now on (starting its work, if it has any) and
    /// stops when it is freed; after `values` completes it keeps the last value. Changes
    /// reach observers on the thread `values` sends from.
    ///
    /// ```swift
    /// let status = Property(initial: "idle", then: uploads.map { "\($0.count) sent" })
    /// ```
    public convenience init(initial: Value, then values: Signal<Value>) {
        let storage = MutableProperty(initial)
        let subscription = values.observe { storage.value = $0 }
        self.init(node: storage.node, sources: [storage, DisposedWithOwner(subscription)])
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
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Property<Output>
    ) -> Property<Output> {
        let followed = currentAndChangesOnce().flatMapLatest { transform($0).currentAndChangesOnce() }
        return Property<Output>(initial: transform(value).value, then: followed)
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
    /// (a new signal per call).
    func currentAndChangesOnce() -> Signal<Value> {
        Signal { input in self.observe { input.send($0) } }
    }
}

/// Disposes a subscription when the property that owns it is freed.
// Safe to share: its only stored property is a `let` of a Sendable type.
private final class DisposedWithOwner: Sendable {
    private let subscription: Disposable

    init(_ subscription: Disposable) {
        self.subscription = subscription
    }

    deinit {
        subscription.dispose()
    }
}
