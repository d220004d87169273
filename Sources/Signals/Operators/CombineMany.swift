extension Signal {
    /// Emits an array of the latest values of all `signals`, in order, whenever any sends.
    ///
    /// Nothing is sent until all have sent; the result completes when all have completed.
    /// It is for a list whose length is known only at run time (one signal per row). An empty
    /// list sends `[]` to its first observer, then completes, as ``init(value:)`` does: the
    /// combination of nothing is known at once (RxSwift's `combineLatest` of an empty
    /// collection does the same).
    ///
    /// ```swift
    /// let allValid = Signal.combineLatest(fields.map(\.isValid)).map { $0.allSatisfy { $0 } }
    /// ```
    public static func combineLatest(_ signals: [Signal<Value>]) -> Signal<[Value]> {
        guard !signals.isEmpty else { return Signal<[Value]>(value: []) }
        return signals[0].derived { (output: SignalCore<[Value]>) in
            var latest = [Value?](repeating: nil, count: signals.count)
            var missing = signals.count
            var completions = 0
            let step: (ListEvent<Value>) -> Void = { event in
                switch event {
                case .value(let index, let value):
                    if latest[index] == nil { missing -= 1 }
                    latest[index] = value
                    if missing == 0 { output.emit(latest.compactMap { $0 }) }
                case .completed:
                    completions += 1
                    if completions == signals.count { output.emitCompleted() }
                }
            }
            attach(signals, to: output, step)
        }
    }

    /// Emits an array of the n-th values of all `signals`, in order, once each has sent one.
    ///
    /// The result completes when any input has completed and no unpaired value of it is
    /// left. An empty list sends `[]` to its first observer, then completes, as
    /// `combineLatest` of one does, so waiting for "every result" of no requests still answers.
    ///
    /// ```swift
    /// let pages = Signal.zip(ids.map(loadPage))   // Signal<[Page]>, one per round
    /// ```
    public static func zip(_ signals: [Signal<Value>]) -> Signal<[Value]> {
        guard !signals.isEmpty else { return Signal<[Value]>(value: []) }
        return signals[0].derived { (output: SignalCore<[Value]>) in
            var queues = [ArraySlice<Value>](repeating: [], count: signals.count)
            var done = [Bool](repeating: false, count: signals.count)
            let step: (ListEvent<Value>) -> Void = { event in
                switch event {
                case .value(let index, let value):
                    queues[index].append(value)
                case .completed(let index): done[index] = true
                }
                while queues.allSatisfy({ !$0.isEmpty }) {
                    output.emit(queues.indices.map { queues[$0].removeFirst() })
                }
                if queues.indices.contains(where: { done[$0] && queues[$0].isEmpty }) {
                    output.emitCompleted()
                }
            }
            attach(signals, to: output, step)
        }
    }

    /// Forwards each of `signals` to `output`, every event tagged with the signal's index
    /// and run by `step` inside `output`'s serialized section.
    private static func attach<Output>(
        _ signals: [Signal<Value>],
        to output: SignalCore<Output>,
        _ step: @escaping (ListEvent<Value>) -> Void
    ) {
        for (index, signal) in signals.enumerated() {
            signal.forward(
                to: output, value: { output.serialize(.value(index, $0), step) },
                completed: { output.serialize(.completed(index), step) })
        }
    }
}

/// An event of one signal of a list, tagged with its index in the list.
private enum ListEvent<Value> {
    case value(Int, Value)
    case completed(Int)
}
