extension Signal {
    /// Drops a value when `isEquivalent(previous, value)` says it repeats the one before.
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Signal<Value> {
        derived { output in
            let previous = StateCell<Value?>(nil)
            forward(
                to: output,
                value: { value in
                    if let last = previous.value, isEquivalent(last, value) { return }
                    previous.value = value
                    output.send(value)
                },
                carryingPrefix: { value in
                    output.prefix = value
                    previous.value = value
                })
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops a value equal to the one before it.
    @inlinable
    public func skipRepeats() -> Signal<Value> {
        skipRepeats(==)
    }
}
