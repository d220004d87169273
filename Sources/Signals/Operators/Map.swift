extension Signal {
    /// Transforms every value with `transform`.
    @inlinable
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Signal<Output> {
        derivedInDelivery { output in
            guard let replay = carriedReplay(into: output) else {
                return forward(
                    to: output, value: { output.sendInDelivery(transform($0)) },
                    carryingPrefix: { output.prefix = transform($0) })
            }
            forward(
                to: output,
                value: { value in
                    let mapped = transform(value)
                    replay.append(mapped)
                    output.sendInDelivery(mapped)
                }, carryingPrefix: { output.prefix = transform($0) })
        }
    }

    /// Forwards only the values for which `isIncluded` returns true.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        derivedInDelivery { output in
            guard let replay = carriedReplay(into: output) else {
                return forward(
                    to: output, value: { if isIncluded($0) { output.sendInDelivery($0) } },
                    carryingPrefix: { if isIncluded($0) { output.prefix = $0 } })
            }
            forward(
                to: output,
                value: { value in
                    guard isIncluded(value) else { return }
                    replay.append(value)
                    output.sendInDelivery(value)
                }, carryingPrefix: { if isIncluded($0) { output.prefix = $0 } })
        }
    }

    /// Transforms every value and forwards the results that are not `nil`.
    @inlinable
    public func compactMap<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output?) -> Signal<Output> {
        derivedInDelivery { output in
            guard let replay = carriedReplay(into: output) else {
                return forward(
                    to: output, value: { if let mapped = transform($0) { output.sendInDelivery(mapped) } },
                    carryingPrefix: { output.prefix = transform($0) })
            }
            forward(
                to: output,
                value: { value in
                    guard let mapped = transform(value) else { return }
                    replay.append(mapped)
                    output.sendInDelivery(mapped)
                }, carryingPrefix: { output.prefix = transform($0) })
        }
    }
}
