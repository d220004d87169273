import Synchronization

extension Signal {
    /// Forwards the values of all `signals` as they arrive; completes when all have completed.
    ///
    /// ```swift
    /// let anyTap = Signal.merge(saveTaps, doneTaps, swipeTaps)
    /// ```
    public static func merge(_ signals: Signal<Value>...) -> Signal<Value> {
        merge(signals)
    }

    /// Forwards the values of all `signals` as they arrive; completes when all have completed.
    public static func merge(_ signals: [Signal<Value>]) -> Signal<Value> {
        let output = SignalCore<Value>()
        let merged = Signal(core: output)
        if signals.isEmpty { output.sendCompleted() }
        let remaining = CompletionCounter(signals.count)
        for signal in signals {
            signal.forward(
                to: output, value: { output.send($0) },
                completed: { if remaining.completeOne() { output.sendCompleted() } })
        }
        return merged
    }
}

/// Counts down completions of several sources, from any thread.
final class CompletionCounter: Sendable {
    private let remaining: Atomic<Int>

    init(_ count: Int) {
        remaining = Atomic(count)
    }

    /// Records one completion; true when it was the last.
    func completeOne() -> Bool {
        remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
    }
}
