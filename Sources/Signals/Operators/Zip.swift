extension Signal {
    /// Pairs the n-th value of `first` with the n-th value of `second`; completes when
    /// either has completed and no unpaired value of it is left.
    public static func zip<Other>(
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
            first.forward(to: output, value: { output.serialize(.left($0), step) },
                          completed: { output.serialize(.leftCompleted, step) })
            second.forward(to: output, value: { output.serialize(.right($0), step) },
                           completed: { output.serialize(.rightCompleted, step) })
        }
    }
}
