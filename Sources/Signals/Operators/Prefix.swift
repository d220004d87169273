extension Signal {
    /// Gives every observer `value` the moment it starts observing, then this signal's values.
    ///
    /// `map`, `filter`, `compactMap` and `skipRepeats` carry the prefix along, so their
    /// observers get it (transformed) too. Any other operator built on this signal gets
    /// the prefix once, when it starts (at its first observer), as its first value:
    /// `Signal.combineLatest(a.prefix(value: 0), b)` starts from `0`. An observer arriving after completion gets
    /// the prefix, then the completion.
    public func prefix(value: Value) -> Signal<Value> {
        derived { output in
            output.prefix = value
            forward(to: output, value: { output.send($0) })
        }
    }
}
