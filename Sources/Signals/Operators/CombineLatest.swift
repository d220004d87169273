/// A value from one of two sources, for operators that serialize both.
@usableFromInline
enum Either<Left, Right> {
    case left(Left)
    case right(Right)
    case leftCompleted
    case rightCompleted
}

extension Signal {
    /// Emits a pair of the latest values of `first` and `second` whenever either sends,
    /// once both have sent; completes when both have completed.
    ///
    /// ```swift
    /// let form = Signal.combineLatest(usernames, passwords)   // Signal<(String, String)>
    /// ```
    @inlinable
    public static func combineLatest<Other>(
        _ first: Signal<Value>,
        _ second: Signal<Other>
    ) -> Signal<(Value, Other)> {
        first.derived { output in
            let latestFirst = StateCell<Value?>(nil)
            let latestSecond = StateCell<Other?>(nil)
            let completions = StateCell(0)
            let step: (Either<Value, Other>) -> Void = { event in
                switch event {
                case .left(let value): latestFirst.value = value
                case .right(let value): latestSecond.value = value
                case .leftCompleted, .rightCompleted:
                    completions.value += 1
                    if completions.value == 2 { output.emitCompleted() }
                    return
                }
                if let a = latestFirst.value, let b = latestSecond.value { output.emit((a, b)) }
            }
            first.forward(to: output, value: { output.serialize(.left($0), step) },
                          completed: { output.serialize(.leftCompleted, step) })
            second.forward(to: output, value: { output.serialize(.right($0), step) },
                           completed: { output.serialize(.rightCompleted, step) })
        }
    }
}
