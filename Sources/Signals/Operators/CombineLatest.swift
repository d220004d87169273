/// A value from one of two sources, for operators that serialize both.
@usableFromInline
enum Either<Left, Right> {
    case left(Left)
    case right(Right)
    case leftCompleted
    case rightCompleted
}

extension Signal {
    /// Emits a pair of the latest values of `first` and `second` whenever either sends.
    ///
    /// Nothing is sent until both have sent; the result completes when both have
    /// completed.
    ///
    /// ```swift
    /// let form = Signal.combineLatest(usernames, passwords)   // Signal<(String, String)>
    /// ```
    @inlinable
    public static func combineLatest<Other: Sendable>(
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
    /// Emits a flat tuple of the latest values of `first` and `others` whenever any sends.
    ///
    /// Nothing is sent until all have sent; the result completes when all have completed.
    ///
    /// ```swift
    /// let form = Signal.combineLatest(names, passwords, agreements)   // Signal<(String, String, Bool)>
    /// ```
    public static func combineLatest<each Other: Sendable>(
        _ first: Signal<Value>,
        _ others: repeat Signal<each Other>
    ) -> Signal<(Value, repeat each Other)> {
        erased(first, repeat each others, combinedBy: Signal<any Sendable>.combineLatest)
    }

    /// `first` and each of `others` type-erased into one list for `combine` (an array
    /// form of a combining operator), each array it sends made a tuple again.
    ///
    /// The pack forms are built on the array forms, so each operator has one state
    /// machine; the array keeps every input's value at the input's index, so the casts
    /// of `tuple` match by construction.
    static func erased<each Other: Sendable>(
        _ first: Signal<Value>,
        _ others: repeat Signal<each Other>,
        combinedBy combine: ([Signal<any Sendable>]) -> Signal<[any Sendable]>
    ) -> Signal<(Value, repeat each Other)> {
        var inputs = [first.map { $0 as any Sendable }]
        for other in repeat each others { inputs.append(other.map { $0 as any Sendable }) }
        return combine(inputs).map { tuple($0, as: Value.self, repeat (each Other).self) }
    }
}
