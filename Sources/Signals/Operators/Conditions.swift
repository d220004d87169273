extension Signal {
    /// Forwards values while `predicate` holds, then completes.
    ///
    /// The first value for which `predicate` does not hold is not forwarded.
    ///
    /// ```swift
    /// let countdown = ticks.map { 10 - $0 }.take(while: { $0 >= 0 })
    /// ```
    public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        derived { output in
            let isTaking = StateCell(true)
            forward(
                to: output,
                value: { value in
                    guard isTaking.value else { return }
                    guard predicate(value) else {
                        isTaking.value = false
                        return output.sendCompleted()
                    }
                    output.send(value)
                })
        }
    }

    /// Drops values while `predicate` holds, then forwards every value.
    ///
    /// Forwarding starts with the first value for which `predicate` does not hold;
    /// `predicate` is not asked again.
    ///
    /// ```swift
    /// let typed = queries.skip(while: { $0.isEmpty })
    /// ```
    public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Signal<Value> {
        derivedInDelivery { output in
            let isSkipping = StateCell(true)
            forward(
                to: output,
                value: { value in
                    if isSkipping.value {
                        guard !predicate(value) else { return }
                        isSkipping.value = false
                    }
                    output.sendInDelivery(value)
                })
        }
    }

    /// Drops values until `trigger` sends a value or completes, then forwards every value.
    ///
    /// A trigger that completes without a value opens the gate too, as in ReactiveSwift
    /// (in RxSwift it would keep it shut for good), mirroring ``take(until:)``, which
    /// ends when its trigger completes. The trigger is observed first, so a prefix of the
    /// trigger opens the gate before this signal's first value.
    ///
    /// ```swift
    /// let edits = fieldChanges.skip(until: screenAppeared)
    /// ```
    public func skip<Trigger: Sendable>(until trigger: Signal<Trigger>) -> Signal<Value> {
        derived { output in
            var isOpen = false
            let step: (Either<Value, Void>) -> Void = { event in
                switch event {
                case .left(let value): if isOpen { output.emit(value) }
                case .right, .rightCompleted: isOpen = true
                case .leftCompleted: output.emitCompleted()
                }
            }
            trigger.forward(
                to: output, value: { _ in output.serialize(.right(()), step) },
                completed: { output.serialize(.rightCompleted, step) })
            forward(
                to: output, value: { output.serialize(.left($0), step) },
                completed: { output.serialize(.leftCompleted, step) })
        }
    }

    /// Forwards values until `bag` is disposed or freed, then completes.
    ///
    /// The signal lives as long as the screen (or other owner) whose bag it is.
    /// The bag keeps only a small link to the signal, which lets go of the signal when the
    /// signal ends first (it completes, or is released with no observer left); the bag
    /// drops such spent links as it grows, so a bag that lives long does not pile them up.
    /// The completion is delivered on the thread that disposes or frees the bag.
    ///
    /// ```swift
    /// final class SearchController {
    ///     private let bag = DisposeBag()
    ///     init(logic: SearchLogic) {
    ///         logic.results.take(during: bag).observe { print($0) }
    ///     }
    /// }
    /// ```
    public func take(during bag: DisposeBag) -> Signal<Value> {
        derived { output in
            let link = AnyDisposable { output.sendCompleted() }
            // Disposed with the output's subscriptions too, when the output ends first:
            // the bag then holds a spent link, which it prunes.
            output.addUpstream(link)
            bag.insert(link)
            forward(to: output, value: { output.send($0) })
        }
    }
}
