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
        first.derived { output in
            let state = StateCell(LatestValues())
            let step: (IndexedEvent) -> Void = { event in
                switch event {
                case .value(let index, let value):
                    guard state.value.store(value, at: index) else { return }
                    output.emit(tuple(state.value.values, as: Value.self, repeat (each Other).self))
                case .completed:
                    if state.value.complete() { output.emitCompleted() }
                }
            }
            var inputs = 1
            for _ in repeat each others { inputs += 1 }
            state.value.inputs = inputs
            forwardIndexed(first, repeat each others, to: output, step)
        }
    }

    /// Forwards `first` and each of `others` to `output`, every event tagged with its
    /// input's index (0 for `first`) and run by `step` inside `output`'s serialized section.
    static func forwardIndexed<each Other: Sendable, Output>(
        _ first: Signal<Value>,
        _ others: repeat Signal<each Other>,
        to output: SignalCore<Output>,
        _ step: @escaping (IndexedEvent) -> Void
    ) {
        var count = 0
        func attach<Input: Sendable>(_ signal: Signal<Input>) {
            let index = count
            count += 1
            signal.forward(
                to: output, value: { output.serialize(.value(index, $0), step) },
                completed: { output.serialize(.completed(index), step) })
        }
        attach(first)
        for other in repeat each others { attach(other) }
    }
}

/// An event of one of several inputs of a combining operator, tagged with its index.
enum IndexedEvent {
    case value(Int, any Sendable)
    case completed(Int)
}

/// The latest value of each input of `combineLatest`, type-erased, at the input's index.
struct LatestValues {
    var inputs = 0 {
        didSet { slots = Array(repeating: nil, count: inputs) }
    }
    private var slots: [(any Sendable)?] = []
    private var missing = -1
    private var completions = 0

    /// Every input's latest value; only valid once `store` returned true.
    var values: [any Sendable] { slots.compactMap { $0 } }

    /// Stores `value` for input `index`; true once every input has a value.
    mutating func store(_ value: any Sendable, at index: Int) -> Bool {
        if missing < 0 { missing = inputs }
        if slots[index] == nil { missing -= 1 }
        slots[index] = value
        return missing == 0
    }

    /// Records one input's completion; true when it was the last.
    mutating func complete() -> Bool {
        completions += 1
        return completions == inputs
    }
}
