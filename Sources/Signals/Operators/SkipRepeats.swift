extension Signal {
    /// Drops a value when `isEquivalent(previous, value)` says it repeats the one before.
    public func skipRepeats(_ isEquivalent: @escaping (Value, Value) -> Bool) -> Signal<Value> {
        derived { output in
            var previous: Value?
            forward(to: output, value: { value in
                if let last = previous, isEquivalent(last, value) { return }
                previous = value
                output.send(value)
            })
        }
    }
}

extension Signal where Value: Equatable {
    /// Drops a value equal to the one before it.
    public func skipRepeats() -> Signal<Value> {
        skipRepeats(==)
    }
}
