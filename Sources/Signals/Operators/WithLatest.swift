extension Signal {
    /// Pairs each value with the latest value of `sampled`.
    ///
    /// Values that arrive before `sampled` has sent anything are dropped. The result
    /// completes with this signal.
    public func withLatest<Sampled: Sendable>(from sampled: Signal<Sampled>) -> Signal<(Value, Sampled)> {
        withLatest(from: sampled) { ($0, $1) }
    }

    /// Pairs each value with the current value of `property`.
    ///
    /// A ``MutableProperty`` works too.
    public func withLatest<Sampled: Sendable>(from property: Property<Sampled>) -> Signal<(Value, Sampled)> {
        withLatest(from: property) { ($0, $1) }
    }

    /// Combines each value with the latest value of `sampled` using `combine`.
    ///
    /// Values that arrive before `sampled` has sent anything are dropped. The result
    /// completes with this signal.
    ///
    /// ```swift
    /// let submissions = submitTaps.withLatest(from: drafts) { _, draft in draft }
    /// ```
    public func withLatest<Sampled: Sendable, Output: Sendable>(
        from sampled: Signal<Sampled>,
        _ combine: @escaping @Sendable (Value, Sampled) -> Output
    ) -> Signal<Output> {
        derived { output in
            var latest: Sampled?
            let step: (Either<Value, Sampled>) -> Void = { event in
                switch event {
                case .left(let value): if let latest { output.emit(combine(value, latest)) }
                case .right(let value): latest = value
                case .leftCompleted: output.emitCompleted()
                case .rightCompleted: break
                }
            }
            sampled.forward(to: output, value: { output.serialize(.right($0), step) }, completed: {})
            forward(
                to: output, value: { output.serialize(.left($0), step) },
                completed: { output.serialize(.leftCompleted, step) })
        }
    }

    /// Combines each value with the current value of `property` using `combine`.
    ///
    /// The result completes with this signal.
    ///
    /// ```swift
    /// let logins = loginTaps.withLatest(from: credentials) { _, credentials in credentials }
    /// ```
    public func withLatest<Sampled: Sendable, Output: Sendable>(
        from property: Property<Sampled>,
        _ combine: @escaping @Sendable (Value, Sampled) -> Output
    ) -> Signal<Output> {
        derived { output in
            forward(to: output, value: { output.send(combine($0, property.node.read())) })
        }
    }

    /// Sends the latest value of this signal each time `trigger` sends.
    ///
    /// The same value goes again if nothing newer came; nothing goes while this signal has
    /// sent nothing. The result completes when `trigger` completes. It is `trigger.withLatest(from: self) { _, value in value }`: pressing "Submit" twice
    /// submits the form twice. ReactiveSwift's `sample(on:)` also sends a value again,
    /// but completes only once both signals have; RxSwift's `sample` sends each value at
    /// most once and, when the trigger completes, a value not sent yet before completing.
    ///
    /// ```swift
    /// let submitted = form.sample(on: submitTaps)
    /// ```
    public func sample<Trigger: Sendable>(on trigger: Signal<Trigger>) -> Signal<Value> {
        trigger.withLatest(from: self) { _, value in value }
    }
}
