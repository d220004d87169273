extension Signal {
    /// Pairs each value with the latest value of `sampled`; values that arrive before
    /// `sampled` has sent anything are dropped. Completes with this signal.
    public func withLatest<Sampled: Sendable>(from sampled: Signal<Sampled>) -> Signal<(Value, Sampled)> {
        derived { output in
            var latest: Sampled?
            let step: (Either<Value, Sampled>) -> Void = { event in
                switch event {
                case .left(let value): if let latest { output.emit((value, latest)) }
                case .right(let value): latest = value
                case .leftCompleted: output.emitCompleted()
                case .rightCompleted: break
                }
            }
            sampled.forward(to: output, value: { output.serialize(.right($0), step) }, completed: {})
            forward(
                to: output, value: { output.serialize(.left($0), step) },
                completed: { output.serialize(.leftCompleted, step) })
        }
    }

    /// Pairs each value with the current value of `property` (a ``MutableProperty`` works too).
    public func withLatest<Sampled: Sendable>(from property: Property<Sampled>) -> Signal<(Value, Sampled)> {
        derived { output in
            forward(to: output, value: { output.send(($0, property.value)) })
        }
    }
}
