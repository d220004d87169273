extension Signal where Value: Sendable {
    /// The values sent from now on, as an `AsyncSequence`.
    ///
    /// The sequence ends when the signal completes. Values are buffered until the consumer
    /// asks for them; ending the iteration stops the observation.
    ///
    /// ```swift
    /// for await query in searches.values { await search(query) }
    /// ```
    public var values: AsyncStream<Value> {
        AsyncStream { continuation in
            let observation = core.add(
                ClosureObserver(
                    onValue: { continuation.yield($0) },
                    onCompleted: { continuation.finish() }
                ))
            continuation.onTermination = { _ in observation.dispose() }
        }
    }
}

extension Property where Value: Sendable {
    /// The current value, then every change, as an `AsyncSequence`.
    ///
    /// The sequence ends when the property completes (when a ``MutableProperty`` is
    /// freed).
    public var values: AsyncStream<Value> {
        AsyncStream { continuation in
            let observation = node.core.addObservingCommitted(
                ClosureObserver(
                    onValue: { if case .changed(let value) = $0 { continuation.yield(value) } },
                    onCompleted: { continuation.finish() }
                ))
            continuation.onTermination = { _ in observation.dispose() }
        }
    }
}
