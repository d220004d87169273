extension Signal {
    /// Pairs the n-th value of `first` with the n-th value of `second`.
    ///
    /// The result completes when either has completed and no unpaired value of it is left.
    public static func zip<Other: Sendable>(
        _ first: Signal<Value>,
        _ second: Signal<Other>
    ) -> Signal<(Value, Other)> {
        first.derived { output in
            var firstQueue: [Value] = []
            var secondQueue: [Other] = []
            var firstDone = false
            var secondDone = false
            let step: (Either<Value, Other>) -> Void = { event in
                switch event {
                case .left(let value): firstQueue.append(value)
                case .right(let value): secondQueue.append(value)
                case .leftCompleted: firstDone = true
                case .rightCompleted: secondDone = true
                }
                while !firstQueue.isEmpty, !secondQueue.isEmpty {
                    output.emit((firstQueue.removeFirst(), secondQueue.removeFirst()))
                }
                if (firstDone && firstQueue.isEmpty) || (secondDone && secondQueue.isEmpty) {
                    output.emitCompleted()
                }
            }
            first.forward(
                to: output, value: { output.serialize(.left($0), step) },
                completed: { output.serialize(.leftCompleted, step) })
            second.forward(
                to: output, value: { output.serialize(.right($0), step) },
                completed: { output.serialize(.rightCompleted, step) })
        }
    }
}

extension Signal {
    /// Emits a flat tuple of the n-th values of `first` and every one of `others`.
    ///
    /// The result completes when any input has completed and no unpaired value of it is
    /// left.
    ///
    /// ```swift
    /// let rows = Signal.zip(ids, titles, prices)   // Signal<(Int, String, Int)>
    /// ```
    public static func zip<each Other: Sendable>(
        _ first: Signal<Value>,
        _ others: repeat Signal<each Other>
    ) -> Signal<(Value, repeat each Other)> {
        erased(first, repeat each others, combinedBy: Signal<any Sendable>.zip)
    }
}
