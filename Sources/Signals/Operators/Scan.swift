extension Signal {
    /// Emits the running accumulation of every value, starting from `initial`.
    ///
    /// `initial` itself is not emitted: the first emission is `combine(initial, first)`.
    public func scan<Result>(
        _ initial: Result,
        _ combine: @escaping (Result, Value) -> Result
    ) -> Signal<Result> {
        derived { output in
            var accumulated = initial
            forward(to: output, value: { value in
                accumulated = combine(accumulated, value)
                output.send(accumulated)
            })
        }
    }
}
