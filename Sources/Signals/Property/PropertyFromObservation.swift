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
        // The property's core holds the tracker until it lets go of its subscriptions.
        let tracker = StateCell((read: read, input: input))
        self.init(initial: Property.track(tracker), then: changes)
        node.core.addUpstream(AnyDisposable { withExtendedLifetime(tracker) {} })
    }

    /// Reads `tracker`'s closure under `withObservationTracking`, and again after the next
    /// change of what it read, sending what it reads to `tracker`'s input.
    ///
    /// `onChange` runs before the change lands, on the thread that makes it; it holds the
    /// tracker weakly, so a freed property's last tracking keeps nothing alive.
    @MainActor private static func track(
        _ tracker: StateCell<(read: @MainActor () -> Value, input: Signal<Value>.Input)>
    ) -> Value {
        withObservationTracking(tracker.value.read) { [weak tracker] in
            Task { @MainActor [weak tracker] in if let tracker { tracker.value.input.send(track(tracker)) } }
        }
    }
}
