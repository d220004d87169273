extension Signal {
    /// Maps each value to a signal and forwards the values of the newest one only; the
    /// previous inner signal is unsubscribed as soon as a new value arrives. Completes
    /// when this signal and the current inner signal have both completed.
    public func flatMapLatest<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Signal<Output>) -> Signal<
        Output
    > {
        derived { output in
            let state = FlatMapLatestState(output: output, transform: transform)
            output.addUpstream(state.inner)
            let step = state.step
            forward(
                to: output, value: { output.serialize(.outer($0), step) },
                completed: { output.serialize(.outerCompleted, step) })
        }
    }
}

/// The state of one `flatMapLatest`, touched only inside its output's serialized sections.
///
/// The inner subscription refers back to this state; disposing `inner` (on completion or
/// when the output stops listening) breaks that cycle.
// Safe to share: touched only inside its output's serialized sections (see above).
private final class FlatMapLatestState<Value: Sendable, Output: Sendable>: @unchecked Sendable {
    enum Step {
        case outer(Value)
        case outerCompleted
        case inner(Int, Output)
        case innerCompleted(Int)
    }

    let inner = SerialDisposable()
    private let output: SignalCore<Output>
    private let transform: @Sendable (Value) -> Signal<Output>
    private var generation = 0
    private var outerDone = false
    private var innerDone = true

    init(output: SignalCore<Output>, transform: @escaping @Sendable (Value) -> Signal<Output>) {
        self.output = output
        self.transform = transform
    }

    func step(_ event: Step) {
        switch event {
        case .outer(let value):
            generation += 1
            innerDone = false
            let id = generation
            let signal = transform(value)
            inner.replace(with: nil)
            let output = self.output
            inner.replace(
                with: signal.attach(
                    value: { output.serialize(.inner(id, $0), self.step) },
                    completed: { output.serialize(.innerCompleted(id), self.step) }))
        case .outerCompleted:
            outerDone = true
        case .inner(let id, let value):
            if id == generation { output.emit(value) }
            return
        case .innerCompleted(let id):
            if id == generation { innerDone = true }
        }
        if outerDone && innerDone { output.emitCompleted() }
    }
}
