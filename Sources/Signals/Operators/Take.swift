extension Signal {
    /// Forwards the first `count` values, then completes.
    ///
    /// `take(first: 0)` completes at once.
    public func take(first count: Int) -> Signal<Value> {
        derived { output in
            guard count > 0 else { return output.sendCompleted() }
            let remaining = StateCell(count)
            forward(
                to: output,
                value: { value in
                    guard remaining.value > 0 else { return }
                    remaining.value -= 1
                    output.send(value)
                    if remaining.value == 0 { output.sendCompleted() }
                })
        }
    }

    /// Drops the first `count` values and forwards the rest.
    public func skip(first count: Int) -> Signal<Value> {
        derived { output in
            let skipped = StateCell(0)
            forward(to: output, value: { if skipped.value < count { skipped.value += 1 } else { output.send($0) } })
        }
    }

    /// Forwards values until `trigger` sends a value or completes, then completes.
    public func take<Trigger: Sendable>(until trigger: Signal<Trigger>) -> Signal<Value> {
        derived { output in
            let stop = ForwardObserver<Trigger>(
                onValue: { _ in output.sendCompleted() },
                onCompleted: { output.sendCompleted() }
            )
            output.onStart { output.addUpstream(trigger.core.add(stop)) }
            forward(to: output, value: { output.send($0) })
        }
    }
}
