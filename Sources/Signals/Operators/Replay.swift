extension Signal {
    /// A signal that gives each new observer the last `count` values it delivered, then the rest.
    ///
    /// The replayed values come oldest first, and the result completes with this signal.
    /// Like every operator it starts at its first observer, so it replays only what came
    /// after that. An observer that arrives after the completion gets the kept values, then
    /// the completion.
    ///
    /// The kept values are handed out in delivery order, so an observer added from inside
    /// an observer, or on another thread while values are being delivered, gets each value
    /// exactly once, in order: the ones delivered before its turn by replay, the others
    /// live.
    ///
    /// `map`, `filter`, `compactMap` and `scan` after it replay what they deliver too, so a
    /// late observer of `request.share(replay: 1).map(describe)` gets the description of
    /// the last result (contract V.8a).
    ///
    /// - Parameter count: How many of the last values to keep; zero or less replays nothing.
    ///
    /// ```swift
    /// let result = request.share(replay: 1)
    /// result.observe(store)
    /// // later: a view that attaches after the result arrived still gets it
    /// result.observeOnMainActor(show)
    /// ```
    public func share(replay count: Int) -> Signal<Value> {
        derived { output in
            let buffer = ReplayBuffer<Value>(limit: count)
            output.replay = buffer
            let step: (Value) -> Void = { value in
                buffer.append(value)
                output.emit(value)
            }
            forward(to: output, value: { output.serialize($0, step) })
        }
    }
}
