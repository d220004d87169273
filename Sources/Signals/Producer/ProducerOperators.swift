extension Producer {
    /// Transforms every value with `transform`.
    @inlinable
    public func map<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Output) -> Producer<Output, Failure> {
        Producer<Output, Failure> { makeRun().map { $0.map(transform) } }
    }

    /// Transforms the failure with `transform`.
    ///
    /// Use it for a caller that speaks another error type.
    public func mapError<NewFailure: Error>(
        _ transform: @escaping @Sendable (Failure) -> NewFailure
    ) -> Producer<Value, NewFailure> {
        Producer<Value, NewFailure> { makeRun().map { $0.mapError(transform) } }
    }

    /// Ends each run with `fallback` (then completion) instead of its failure.
    ///
    /// ```swift
    /// let rows = api.search(query).replaceError(with: [])
    /// ```
    public func replaceError(with fallback: Value) -> Producer<Value, Never> {
        Producer<Value, Never> { makeRun().map { $0.flatMapError { _ in .success(fallback) } } }
    }

    /// On a failure, goes on with the producer `handler` makes from it.
    ///
    /// The run's values so far stay delivered, then those of the new producer follow, and
    /// its end ends the run.
    ///
    /// ```swift
    /// let listings = api.listings().catch { _ in cache.listings() }
    /// ```
    public func `catch`<NewFailure: Error>(
        _ handler: @escaping @Sendable (Failure) -> Producer<Value, NewFailure>
    ) -> Producer<Value, NewFailure> {
        catching(handler)
    }

    /// On a failure, goes on with the producer `handler` makes from it, which cannot fail.
    ///
    /// The common case, chosen when the handler's producer says nothing of its failure:
    /// `.catch { _ in .init(value: []) }` type-checks as it reads, where the generic
    /// version alone could not infer the new failure type.
    public func `catch`(_ handler: @escaping @Sendable (Failure) -> Producer<Value, Never>) -> Producer<Value, Never> {
        catching(handler)
    }

    private func catching<NewFailure: Error>(
        _ handler: @escaping @Sendable (Failure) -> Producer<Value, NewFailure>
    ) -> Producer<Value, NewFailure> {
        Producer<Value, NewFailure> { input in
            // The first run's failure is its last value: the handler's run starts after it,
            // so the two never overlap, and the first run's own completion is not the end.
            let runs = CompositeDisposable()
            let failed = StateCell(false)
            runs.add(
                makeRun().attach(
                    value: { result in
                        switch result {
                        case .success(let value): input.send(value)
                        case .failure(let error):
                            failed.value = true
                            guard !runs.isDisposed else { return }
                            runs.add(
                                handler(error).makeRun().attach(
                                    value: { second in
                                        switch second {
                                        case .success(let value): input.send(value)
                                        case .failure(let error): input.send(failure: error)
                                        }
                                    },
                                    completed: { input.sendCompleted() }))
                        }
                    },
                    completed: { if !failed.value { input.sendCompleted() } }))
            return runs
        }
    }

    /// Runs the work again after a failure, up to `count` more times.
    ///
    /// The failure of the last attempt ends the run. Values of failed attempts stay
    /// delivered. Each attempt is a new run of this producer, started at once on the
    /// thread that delivered the failure.
    public func retry(upTo count: Int) -> Producer<Value, Failure> {
        retrying(upTo: count, pause: nil)
    }

    /// Runs the work again `delay` after a failure, up to `count` more times.
    ///
    /// The failure of the last attempt ends the run. Every event of the run is delivered
    /// on `scheduler`, and the waits are measured on it.
    ///
    /// ```swift
    /// let page = api.page(1).retry(upTo: 3, after: .seconds(2), on: QueueScheduler.main)
    /// ```
    public func retry(upTo count: Int, after delay: Duration, on scheduler: Scheduler) -> Producer<Value, Failure> {
        retrying(upTo: count, pause: (delay, scheduler)).delivered(on: scheduler)
    }

    private func retrying(upTo count: Int, pause: (Duration, any Scheduler)?) -> Producer<Value, Failure> {
        Producer { input in
            let state = RetryState(base: self, input: input, remaining: count, pause: pause)
            state.begin()
            return state.subscription
        }
    }

    /// Fails the run with `failure` unless it has ended `interval` after it started.
    ///
    /// A run that times out has its work stopped. Every event of the run is delivered on
    /// `scheduler`.
    ///
    /// On an ``ImmediateScheduler``, where every delay is zero, a run that does not end at
    /// once times out at once: test timeouts on a `TestScheduler`.
    ///
    /// ```swift
    /// let page = api.page(1).timeout(after: .seconds(10), raising: .timedOut, on: scheduler)
    /// ```
    public func timeout(after interval: Duration, raising failure: Failure, on scheduler: Scheduler) -> Producer<
        Value, Failure
    > {
        timeout(interval, restartedByValues: false, raising: failure, on: scheduler)
    }

    /// Fails the run with `failure` when `interval` passes without a value: counted from
    /// the start, and again from each value (RxSwift's `timeout`).
    ///
    /// ``timeout(after:raising:on:)`` limits the whole run, the wait for a request's
    /// answer; this one limits each wait for the next value, for a stream that must keep
    /// talking (a feed of progress, a socket's messages). A run that times out has its work
    /// stopped. Every event of the run is delivered on `scheduler`.
    ///
    /// ```swift
    /// let progress = upload.progress.timeout(whenIdleFor: .seconds(30), raising: .stalled, on: scheduler)
    /// ```
    public func timeout(whenIdleFor interval: Duration, raising failure: Failure, on scheduler: Scheduler)
        -> Producer<Value, Failure>
    {
        timeout(interval, restartedByValues: true, raising: failure, on: scheduler)
    }

    private func timeout(
        _ interval: Duration, restartedByValues: Bool, raising failure: Failure, on scheduler: Scheduler
    ) -> Producer<Value, Failure> {
        Producer { input in
            // Every step runs serialized on the run's input, the first arming too: the
            // timer's number (-1 once the run has ended) needs no lock of its own.
            let timer = SerialDisposable()
            let generation = StateCell(0)
            @Sendable func arm() {
                guard generation.value >= 0 else { return }
                generation.value += 1
                let number = generation.value
                timer.replace(with: scheduler.schedule(after: interval) { input.serialize(.timedOut(number), step) })
            }
            @Sendable func end(_ send: () -> Void) {
                generation.value = -1
                timer.dispose()
                send()
            }
            @Sendable func step(_ event: IdleEvent<Value, Failure>) {
                switch event {
                case .started: arm()
                case .result(.success(let value)):
                    input.send(value)
                    if restartedByValues { arm() }
                case .result(.failure(let error)): end { input.send(failure: error) }
                case .completed: end { input.sendCompleted() }
                case .timedOut(let number): if number == generation.value { end { input.send(failure: failure) } }
                }
            }
            // The run first, then the timer: a scheduler that runs at once (or a queue that
            // is quicker than this thread) must find the work started, and a run that ends
            // at once ends before its timer can fire.
            let run = makeRun().attach(
                value: { input.serialize(.result($0), step) },
                completed: { input.serialize(.completed, step) })
            input.serialize(.started, step)
            return CompositeDisposable([run, timer])
        }.delivered(on: scheduler)
    }

    /// Delivers every event of each run on `scheduler`, in order.
    func delivered(on scheduler: any Scheduler) -> Producer<Value, Failure> {
        Producer { makeRun().delivered(on: scheduler) }
    }
}

/// An event of a run under a `timeout`: `timedOut` carries the number of the timer it
/// comes from, since a value may restart the timer while an older one fires.
private enum IdleEvent<Value: Sendable, Failure: Error> {
    case started
    case result(Result<Value, Failure>)
    case completed
    case timedOut(Int)
}

/// One run of `retry`: attempts of the base producer, one at a time.
///
/// The fields are touched only inside the serialized sections of the run's input, except
/// `subscription`, which guards itself.
// Safe to share: see above.
private final class RetryState<Value: Sendable, Failure: Error>: @unchecked Sendable {
    enum Event {
        case result(Int, Result<Value, Failure>)
        case completed(Int)
        case attempt(Int)
    }

    /// The current attempt, or the pause before the next one.
    let subscription = SerialDisposable()
    private let base: Producer<Value, Failure>
    private let input: Producer<Value, Failure>.Input
    private let pause: (Duration, any Scheduler)?
    private var remaining: Int
    /// The attempt whose events count; bumped when an attempt fails.
    private var generation = 0

    init(
        base: Producer<Value, Failure>, input: Producer<Value, Failure>.Input, remaining: Int,
        pause: (Duration, any Scheduler)?
    ) {
        self.base = base
        self.input = input
        self.remaining = remaining
        self.pause = pause
    }

    func begin() {
        input.serialize(.attempt(0), step)
    }

    func step(_ event: Event) {
        let input = self.input
        switch event {
        case .attempt(let id):
            // A run disposed meanwhile (from its own observer, say) starts no more attempts.
            guard id == generation, !subscription.isDisposed else { return }
            subscription.replace(
                with: base.makeRun().attach(
                    value: { input.serialize(.result(id, $0), self.step) },
                    completed: { input.serialize(.completed(id), self.step) }))
        case .result(let id, .success(let value)):
            if id == generation { input.send(value) }
        case .result(let id, .failure(let error)):
            guard id == generation else { return }
            guard remaining > 0 else { return input.send(failure: error) }
            remaining -= 1
            generation += 1
            let next = generation
            if let (delay, scheduler) = pause {
                subscription.replace(
                    with: scheduler.schedule(after: delay) { input.serialize(.attempt(next), self.step) })
            } else {
                step(.attempt(next))
            }
        case .completed(let id):
            if id == generation { input.sendCompleted() }
        }
    }
}
