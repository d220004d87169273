extension Signal {
    /// Replaces every value with `value`.
    ///
    /// ```swift
    /// let refreshes = Signal.merge(pullDowns.map(value: ()), retryTaps)
    /// ```
    @inlinable
    public func map<Output: Sendable>(value: Output) -> Signal<Output> {
        map { _ in value }
    }

    /// Forwards the completion only, dropping the values.
    ///
    /// The result is a `Signal<Never>`, so its type says that no value can come, and no
    /// observer can be written that expects one; observe it with
    /// ``observeCompleted(_:)``, or use it where only the end matters, as the trigger of
    /// ``take(until:)`` or ``skip(until:)``.
    ///
    /// ```swift
    /// let stayUntilSaved = edits.take(until: saves.ignoreValues())
    /// ```
    public func ignoreValues() -> Signal<Never> {
        derivedInDelivery { output in
            forward(to: output, value: { _ in })
        }
    }

    /// Pairs each value with the one before it.
    ///
    /// The first value is not sent: it only becomes the `previous` of the second.
    ///
    /// ```swift
    /// let moves = positions.combinePrevious()   // (previous: 1, current: 2), (2, 3), …
    /// ```
    public func combinePrevious() -> Signal<(previous: Value, current: Value)> {
        paired(with: nil)
    }

    /// Pairs each value with the one before it, and the first value with `initial`.
    ///
    /// ```swift
    /// let changes = selections.combinePrevious(initial: nil)
    /// ```
    public func combinePrevious(initial: Value) -> Signal<(previous: Value, current: Value)> {
        paired(with: initial)
    }

    private func paired(with initial: Value?) -> Signal<(previous: Value, current: Value)> {
        derivedInDelivery { output in
            let previous = StateCell(initial)
            forward(
                to: output,
                value: { value in
                    let last = previous.value
                    previous.value = value
                    if let last { output.sendInDelivery((previous: last, current: value)) }
                })
        }
    }
}

extension Signal {
    /// Forwards the values that are not `nil`, unwrapped.
    ///
    /// ```swift
    /// let selected: Signal<Listing> = selections.skipNil()   // from Signal<Listing?>
    /// ```
    @inlinable
    public func skipNil<Wrapped: Sendable>() -> Signal<Wrapped> where Value == Wrapped? {
        compactMap { $0 }
    }
}
