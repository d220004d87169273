extension Signal {
    /// Emits the running accumulation of every value, starting from `initial`.
    ///
    /// `initial` itself is not emitted: the first emission is `combine(initial, first)`.
    @inlinable
    public func scan<Result: Sendable>(
        _ initial: Result,
        _ combine: @escaping @Sendable (Result, Value) -> Result
    ) -> Signal<Result> {
        derivedInDelivery { output in
            let accumulated = StateCell(initial)
            guard let replay = carriedReplay(into: output) else {
                return forward(
                    to: output,
                    value: { value in
                        accumulated.value = combine(accumulated.value, value)
                        output.sendInDelivery(accumulated.value)
                    })
            }
            forward(
                to: output,
                value: { value in
                    accumulated.value = combine(accumulated.value, value)
                    replay.append(accumulated.value)
                    output.sendInDelivery(accumulated.value)
                })
        }
    }
}
