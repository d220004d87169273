import Observation

extension Property {
    /// A property of what `read` returns from `Observable` models, read again after each
    /// change of what it read.
    ///
    /// `read` runs on the main actor inside `withObservationTracking`: now, for the first
    /// value, then after each change of an observable property it read, on a later turn of
    /// the main actor (the change has landed by then; `onChange` comes before it does).
    /// Changes made before that turn arrive as one, the latest value; observers get it on
    /// the main actor. Of an `Equatable` type, a value equal to the last one is skipped.
    ///
    /// ```swift
    /// @Observable @MainActor final class Filter { var city = "Oslo" }
    /// let filter = Filter()
    /// let city = Property(observing: { filter.city })
    /// city.signal.observe { print($0) }
    /// filter.city = "Bergen"   // prints "Bergen", on the next turn of the main actor
    /// ```
    ///
    /// It is kept like `map`: it lives while it is kept or observed, and `read` (with the
    /// models it captures) lives as long; once it is freed it reads no more. A model that
    /// keeps this property should be captured weakly.
    @MainActor public convenience init(observing read: @escaping @MainActor () -> Value) {
        let (changes, input) = Signal<Value>.pipe()
        let tracker = ObservationTracker(read, input)
        self.init(initial: tracker.track(), then: changes)
        // The property's core holds the tracker until it lets go of its subscriptions.
        node.core.addUpstream(AnyDisposable { withExtendedLifetime(tracker) {} })
    }
}

/// Reads observable state for `Property(observing:)` under `withObservationTracking`, and
/// again after each change, sending what it reads.
@MainActor final class ObservationTracker<Value: Sendable> {
    private let read: () -> Value
    private let input: Signal<Value>.Input

    init(_ read: @escaping @MainActor () -> Value, _ input: Signal<Value>.Input) {
        self.read = read
        self.input = input
    }

    /// Reads, and asks to read again after the next change of what it read.
    func track() -> Value {
        // `onChange` runs before the change lands, on the thread that makes it; it holds
        // the tracker weakly, so a freed property's last tracking keeps nothing alive.
        withObservationTracking(read) { @Sendable [weak self] in
            Task { @MainActor [weak self] in
                if let self { input.send(track()) }
            }
        }
    }
}
