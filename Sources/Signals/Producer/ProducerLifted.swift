/// `Signal`'s operators on each run of a producer, by lifting: one implementation of each
/// operator (the signal's), applied anew to every run (see "Lifting" in <doc:Contract>).
extension Producer {
    /// Applies `transform`, made of `Signal` operators, to the values of each run.
    ///
    /// Each run's values pass through a fresh `transform`, so operators that keep state
    /// (`scan`, `take(first:)`, `skipRepeats`) start over with every run. A failure skips
    /// `transform` and ends the run at once, on the thread that failed: a value that a
    /// timing operator (`delay`, `debounce`) still holds is dropped, as RxSwift's and
    /// ReactiveSwift's do. When `transform`'s signal completes (`take(first: 1)`), the run
    /// completes and its work is stopped. Every operator below is written this way; use
    /// `lift` for the ones not spelled out, or for your own.
    ///
    /// ```swift
    /// let firstPage = api.pages(of: query).lift { $0.take(first: 1) }
    /// ```
    @inlinable
    public func lift<Output: Sendable>(
        _ transform: @escaping @Sendable (Signal<Value>) -> Signal<Output>
    ) -> Producer<Output, Failure> {
        Producer<Output, Failure> {
            Signal { input in
                let (values, valuesInput) = Signal<Value>.pipe()
                // The transformed signal is observed first, so it misses nothing of the run.
                let output = transform(values).attach(
                    value: { input.send(.success($0)) }, completed: { input.sendCompleted() })
                let run = makeRun().attach(
                    value: { result in
                        switch result {
                        case .success(let value): valuesInput.send(value)
                        case .failure(let error): input.core.sendLast(.failure(error))
                        }
                    },
                    completed: { valuesInput.sendCompleted() })
                return CompositeDisposable([run, output])
            }
        }
    }

    /// Keeps the values that satisfy `isIncluded` (``Signal/filter(_:)`` on each run).
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> Self { lift { $0.filter(isIncluded) } }

    /// Maps each value, dropping the nils (``Signal/compactMap(_:)`` on each run).
    @inlinable
    public func compactMap<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output?) -> Producer<
        Output, Failure
    > { lift { $0.compactMap(transform) } }

    /// Replaces each value with `value` (``Signal/map(value:)`` on each run).
    @inlinable
    public func map<Output: Sendable>(value: Output) -> Producer<Output, Failure> { lift { $0.map(value: value) } }

    /// Drops the values, keeping the end (``Signal/ignoreValues()`` on each run).
    @inlinable
    public func ignoreValues() -> Producer<Never, Failure> { lift { $0.ignoreValues() } }

    /// Sends each value with the one before it (``Signal/combinePrevious()`` on each run).
    @inlinable
    public func combinePrevious() -> Producer<(previous: Value, current: Value), Failure> {
        lift { $0.combinePrevious() }
    }

    /// Sends each value with the one before it, `initial` first (``Signal/combinePrevious(initial:)``).
    @inlinable
    public func combinePrevious(initial: Value) -> Producer<(previous: Value, current: Value), Failure> {
        lift { $0.combinePrevious(initial: initial) }
    }

    /// Sends each running result of `combine` (``Signal/scan(_:_:)`` on each run).
    @inlinable
    public func scan<Result: Sendable>(_ initial: Result, _ combine: @escaping @Sendable (Result, Value) -> Result)
        -> Producer<Result, Failure>
    { lift { $0.scan(initial, combine) } }

    /// Skips values equivalent to the one before (``Signal/skipRepeats(_:)`` on each run).
    @inlinable
    public func skipRepeats(_ isEquivalent: @escaping @Sendable (Value, Value) -> Bool) -> Self {
        lift { $0.skipRepeats(isEquivalent) }
    }

    /// Sends `value` first, then the run's values: RxSwift's `startWith` (``Signal/prefix(value:)``).
    ///
    /// ```swift
    /// let rows = api.search(query).prefix(value: cachedRows)
    /// ```
    @inlinable
    public func prefix(value: Value) -> Self { lift { $0.prefix(value: value) } }

    /// Sends the first `count` values, then completes and stops the work (``Signal/take(first:)``).
    @inlinable
    public func take(first count: Int) -> Self { lift { $0.take(first: count) } }

    /// Skips the first `count` values (``Signal/skip(first:)`` on each run).
    @inlinable
    public func skip(first count: Int) -> Self { lift { $0.skip(first: count) } }

    /// Sends values while `predicate` holds, then completes (``Signal/take(while:)``).
    @inlinable
    public func take(while predicate: @escaping @Sendable (Value) -> Bool) -> Self {
        lift { $0.take(while: predicate) }
    }

    /// Skips values while `predicate` holds (``Signal/skip(while:)`` on each run).
    @inlinable
    public func skip(while predicate: @escaping @Sendable (Value) -> Bool) -> Self {
        lift { $0.skip(while: predicate) }
    }

    /// Sends values until `trigger` sends, then completes (``Signal/take(until:)``).
    @inlinable
    public func take<Trigger: Sendable>(until trigger: Signal<Trigger>) -> Self { lift { $0.take(until: trigger) } }

    /// Skips values until `trigger` sends (``Signal/skip(until:)`` on each run).
    @inlinable
    public func skip<Trigger: Sendable>(until trigger: Signal<Trigger>) -> Self { lift { $0.skip(until: trigger) } }

    /// Ends each run when `bag` is emptied or freed (``Signal/take(during:)``).
    @inlinable
    public func take(during bag: DisposeBag) -> Self { lift { $0.take(during: bag) } }

    /// Combines each value with the property's current value (``Signal/withLatest(from:_:)-(Property<Sampled>,_)``).
    public func withLatest<Sampled: Sendable, Output: Sendable>(
        from sampled: Property<Sampled>, _ combine: @escaping @Sendable (Value, Sampled) -> Output
    ) -> Producer<Output, Failure> { lift { $0.withLatest(from: sampled, combine) } }

    /// Combines each value with the latest of `sampled` since the run started, dropping
    /// values that come before it has sent (``Signal/withLatest(from:_:)-(Signal<Sampled>,_)``).
    public func withLatest<Sampled: Sendable, Output: Sendable>(
        from sampled: Signal<Sampled>, _ combine: @escaping @Sendable (Value, Sampled) -> Output
    ) -> Producer<Output, Failure> { lift { $0.withLatest(from: sampled, combine) } }

    /// Delays each value and the completion by `interval` (``Signal/delay(_:on:)``); a
    /// failure is not delayed. `Producer(value: v).delay(d, on: s)` is a result after a delay.
    @inlinable
    public func delay(_ interval: Duration, on scheduler: Scheduler) -> Self {
        lift { $0.delay(interval, on: scheduler) }
    }

    /// Sends a value once `interval` has passed without another (``Signal/debounce(_:on:)``).
    @inlinable
    public func debounce(_ interval: Duration, on scheduler: Scheduler) -> Self {
        lift { $0.debounce(interval, on: scheduler) }
    }

    /// Sends at most one value per `interval` (``Signal/throttle(_:on:)`` on each run).
    @inlinable
    public func throttle(_ interval: Duration, on scheduler: Scheduler) -> Self {
        lift { $0.throttle(interval, on: scheduler) }
    }

    /// Logs each event of each run (``Signal/logEvents(_:to:)``); a failure logs as the run's end.
    public func logEvents(
        _ label: String, to log: @escaping @Sendable (String) -> Void = { StandardError.writeLine($0) }
    )
        -> Self
    { lift { $0.logEvents(label, to: log) } }

    /// Maps each value to a signal and sends the values of the inner signals as `strategy`
    /// says (``Signal/flatMap(_:_:)-(_,(Value)->Signal<Output>)`` on each run).
    public func flatMap<Output: Sendable>(
        _ strategy: FlattenStrategy = .merge, _ transform: @escaping @Sendable (Value) -> Signal<Output>
    ) -> Producer<Output, Failure> { lift { $0.flatMap(strategy, transform) } }

    /// Maps each value to a producer and sends the values of its runs, started as
    /// `strategy` says; the first failure of any run ends the whole, as in RxSwift and
    /// ReactiveSwift (unlike `Signal.flatMap`, which has no failure to end with and sends
    /// failures as values).
    ///
    /// ```swift
    /// let pages = api.firstPage(query).flatMap(.concat) { page in api.details(of: page) }
    /// ```
    public func flatMap<Output: Sendable>(
        _ strategy: FlattenStrategy = .merge, _ transform: @escaping @Sendable (Value) -> Producer<Output, Failure>
    ) -> Producer<Output, Failure> {
        let results = lift { $0.flatMap(strategy, transform) }
        return Producer<Output, Failure> {
            Signal { input in
                results.makeRun().attach(
                    value: { result in
                        switch result {
                        case .success(.success(let value)): input.send(.success(value))
                        case .success(.failure(let error)), .failure(let error): input.core.sendLast(.failure(error))
                        }
                    },
                    completed: { input.sendCompleted() })
            }
        }
    }

    /// Delivers each run's values, failure and completion on `scheduler`, in order.
    ///
    /// ```swift
    /// api.search(query).observe(on: MainScheduler()).start(value: show, failed: report)
    /// ```
    public func observe(on scheduler: Scheduler) -> Self { delivered(on: scheduler) }

    /// Starts each run's work on `scheduler` rather than on the thread that starts it:
    /// RxSwift's `subscribeOn`, ReactiveSwift's `start(on:)`.
    ///
    /// Disposing before the scheduler gets to it means the work never starts.
    ///
    /// ```swift
    /// let rows = Producer { try database.read(Listing.all) }.start(on: QueueScheduler(label: "db"))
    /// ```
    public func start(on scheduler: Scheduler) -> Self {
        Producer {
            Signal { input in
                let run = CompositeDisposable()
                run.add(
                    scheduler.schedule {
                        run.add(makeRun().attach(value: { input.send($0) }, completed: { input.sendCompleted() }))
                    })
                return run
            }
        }
    }

    /// Runs the closures as each run's events pass: `started` before its work starts,
    /// `value`, `failed` or `completed` as they come, and `disposed` once when the run ends
    /// for any reason (ended, failed or disposed).
    ///
    /// ```swift
    /// api.save(form).on(started: { spinner.start() }, disposed: { spinner.stop() })
    /// ```
    public func on(
        started: (@Sendable () -> Void)? = nil,
        value: (@Sendable (Value) -> Void)? = nil,
        failed: (@Sendable (Failure) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil,
        disposed: (@Sendable () -> Void)? = nil
    ) -> Self {
        Producer {
            Signal { input in
                started?()
                let failedOnce = StateCell(false)
                let run = makeRun().attach(
                    value: { result in
                        switch result {
                        case .success(let element): value?(element)
                        case .failure(let error):
                            failedOnce.value = true
                            failed?(error)
                        }
                        input.send(result)
                    },
                    completed: {
                        if !failedOnce.value { completed?() }
                        input.sendCompleted()
                    })
                return AnyDisposable {
                    run.dispose()
                    disposed?()
                }
            }
        }
    }
}

extension Producer where Value: Equatable {
    /// Skips values equal to the one before (``Signal/skipRepeats()`` on each run).
    @inlinable
    public func skipRepeats() -> Self { lift { $0.skipRepeats() } }
}

extension Producer {
    /// Drops the nils (``Signal/skipNil()`` on each run).
    @inlinable
    public func skipNil<Wrapped: Sendable>() -> Producer<Wrapped, Failure> where Value == Wrapped? {
        lift { $0.skipNil() }
    }

    /// A producer whose runs send `values` in order, then complete.
    ///
    /// ```swift
    /// let steps = Producer<String, Never>(values: ["Address", "Payment", "Review"])
    /// ```
    public init(values: some Sequence<Value>) {
        let elements = ContiguousArray(values)
        self.init(makeRun: { Signal(values: elements).map { .success($0) } })
    }

    /// A producer whose runs complete at once, with no value.
    public static var empty: Self { Self(values: []) }

    /// A producer whose runs never send and never end, until they are disposed.
    public static var never: Self { Self(makeRun: { .never }) }
}

extension Producer where Failure == Never {
    /// The same producer, typed as one that may fail with `NewFailure`: to combine it with
    /// producers that do, or to give it a `timeout` that raises (Combine's name).
    ///
    /// ```swift
    /// let cached = Producer<[Row], Never>(value: rows).setFailureType(to: APIError.self)
    /// ```
    public func setFailureType<NewFailure: Error>(to _: NewFailure.Type) -> Producer<Value, NewFailure> {
        Producer<Value, NewFailure> { makeRun().map { .success($0.get()) } }
    }
}
