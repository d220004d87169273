extension Signal {
    /// Gives every observer `value` the moment it starts observing, then this signal's values.
    public func prefix(value: Value) -> Signal<Value> {
        derived { output in
            output.prefix = value
            forward(to: output, value: { output.send($0) })
        }
    }
}
