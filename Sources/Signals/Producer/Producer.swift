/// Work that can run again, each run ending with completion or one typed failure.
///
/// Each ``start(value:failed:completed:)`` runs the work anew, and a run sends values,
/// then ends with completion or with one failure of type `Failure`. A ``Signal`` is hot:
/// its work runs once, for everyone, and it never fails, so one failed request cannot end
/// a search screen's stream of queries. A producer is the other
/// half: the description of a request, cold until started, with a typed error. Retrying
/// it, falling back or timing it out makes a new producer; flattening it into a signal
/// (``Signal/flatMap(_:_:)-(_,(Value)->Producer<Output,Never>)``) starts a run per value,
/// and a failure arrives there as a `Result` value that ends that run only.
///
/// ```swift
/// let search = Producer { () async throws(APIError) in try await api.search(query) }
///     .retry(upTo: 2, after: .seconds(1), on: scheduler)
///     .timeout(after: .seconds(10), raising: .timedOut, on: scheduler)
/// let results = queries.flatMapLatest { query in api.search(query).replaceError(with: []) }
/// ```
///
/// Disposing a run stops its work: the task of an `async` producer is cancelled, and
/// nothing more is delivered once `dispose()` has returned, except a callback another
/// thread had already begun (4.2a in <doc:Contract>; section 7 there has the rules of
/// failure and work that runs again).
public struct Producer<Value: Sendable, Failure: Error>: Sendable {
    /// Makes the signal of one new run: its values as `.success`, a failure as one last
    /// `.failure`, then completion. The run starts when the signal is first observed.
    @usableFromInline let makeRun: @Sendable () -> Signal<Result<Value, Failure>>

    @usableFromInline
    init(makeRun: @escaping @Sendable () -> Signal<Result<Value, Failure>>) {
        self.makeRun = makeRun
    }

    /// A producer whose every run calls `start` with the input of that run.
    ///
    /// The work must keep `input` while it may send: freeing it completes the run.
    ///
    /// - Parameter start: Starts one run's work and returns a disposable that stops it;
    ///   that disposable is disposed once, when the run ends (by completion or failure)
    ///   or is disposed.
    ///
    /// ```swift
    /// let download = Producer<Data, DownloadError> { input in
    ///     let request = client.get(url) { result in
    ///         switch result {
    ///         case .success(let data): input.send(data); input.sendCompleted()
    ///         case .failure(let error): input.send(failure: error)
    ///         }
    ///     }
    ///     return AnyDisposable { request.cancel() }
    /// }
    /// ```
    @inlinable
    public init(_ start: @escaping @Sendable (Input) -> Disposable) {
        makeRun = { Signal { input in start(Input(base: input)) } }
    }

    /// A producer whose every run calls `operation` in a new task.
    ///
    /// The run sends what `operation` returns and completes, or fails with what it throws.
    /// Disposing the run cancels the task.
    ///
    /// The closure says what it throws, and the producer takes that as its `Failure`.
    /// Swift 6 infers `any Error` for a closure that does not say, even where the
    /// producer's type is written out (`Producer<Page, APIError> { try await … }` does not
    /// compile), so write the closure's type:
    ///
    /// ```swift
    /// let page = Producer { () async throws(APIError) in try await api.page(1) }
    /// let anyFailure = Producer { try await legacyAPI.page(1) }   // Failure is any Error
    /// ```
    public init(_ operation: @escaping @Sendable () async throws(Failure) -> Value) {
        self.init { input in
            let task = Task {
                do throws(Failure) {
                    input.send(try await operation())
                    input.sendCompleted()
                } catch {
                    input.send(failure: error)
                }
            }
            return AnyDisposable { task.cancel() }
        }
    }

    /// A producer whose every run observes `signal`: the values it sends from the run's
    /// start, ending when it completes (ReactiveSwift's `SignalProducer(_:)`).
    ///
    /// ```swift
    /// let online = Producer<Void, APIError>(reachability.signal.filter(\.isReachable).map(value: ()))
    /// ```
    public init(_ signal: Signal<Value>) {
        makeRun = { signal.map { .success($0) } }
    }

    /// A producer whose every run sends `value` and completes.
    public init(value: Value) {
        self.init(endingWith: .success(value))
    }

    /// A producer whose every run fails with `failure` at once.
    public init(failure: Failure) {
        self.init(endingWith: .failure(failure))
    }

    /// A producer whose every run sends `result` and ends, at once.
    private init(endingWith result: Result<Value, Failure>) {
        makeRun = {
            Signal { input in
                input.core.sendLast(result)
                return DisposedDisposable.shared
            }
        }
    }

    /// Starts a new run of the work.
    ///
    /// The closures are called on the thread that sends.
    ///
    /// - Parameters:
    ///   - value: Gets each value of the run.
    ///   - failed: Gets the failure that ends the run.
    ///   - completed: Called when the run ends successfully.
    /// - Returns: A disposable that stops the run; after `dispose()` returns nothing more
    ///   is delivered.
    @inlinable @discardableResult
    public func start(
        value: @escaping @Sendable (Value) -> Void,
        failed: @escaping @Sendable (Failure) -> Void,
        completed: @escaping @Sendable () -> Void = {}
    ) -> Disposable {
        let run = makeRun()
        let failedOnce = StateCell(false)
        // The run stays alive until its observer is registered and its work started.
        return withExtendedLifetime(run) {
            run.core.add(
                ClosureObserver(
                    onValue: { result in
                        switch result {
                        case .success(let output): value(output)
                        case .failure(let error):
                            failedOnce.value = true
                            failed(error)
                        }
                    },
                    onCompleted: { if !failedOnce.value { completed() } }))
        }
    }

    /// A signal of one new run's results, values as `.success` and a failure as `.failure`.
    ///
    /// A failure is the last value before completion. The run starts when the signal is
    /// first observed and stops once the signal is released and nobody observes it.
    public func signal() -> Signal<Result<Value, Failure>> {
        makeRun()
    }

    /// The sending side of one run of a ``Producer``.
    ///
    /// A run ends at its first failure or completion; later sends are dropped.
    public struct Input: Sendable {
        @usableFromInline let base: Signal<Result<Value, Failure>>.Input

        @usableFromInline
        init(base: Signal<Result<Value, Failure>>.Input) {
            self.base = base
        }

        /// Sends `value` to the run's observer.
        @inlinable
        public func send(_ value: Value) {
            base.send(.success(value))
        }

        /// Ends the run with `failure`.
        ///
        /// Nothing sent after this call is delivered.
        public func send(failure: Failure) {
            base.core.sendLast(.failure(failure))
        }

        /// Ends the run successfully.
        @inlinable
        public func sendCompleted() {
            base.sendCompleted()
        }

        /// Runs `step(event)` serialized with this run's deliveries, for operators whose
        /// state is touched only there; a step sends with `send`, which is then queued
        /// behind it.
        func serialize<Event>(_ event: Event, _ step: @escaping (Event) -> Void) {
            base.core.serialize(event, step)
        }
    }
}

extension Producer where Failure == Never {
    /// Starts a new run of work that cannot fail.
    ///
    /// The closures are called on the thread that sends.
    ///
    /// - Parameters:
    ///   - value: Gets each value of the run.
    ///   - completed: Called when the run ends.
    /// - Returns: A disposable that stops the run.
    @discardableResult
    public func start(
        value: @escaping @Sendable (Value) -> Void,
        completed: @escaping @Sendable () -> Void = {}
    ) -> Disposable {
        start(value: value, failed: { _ in }, completed: completed)
    }
}

extension Producer.Input where Value == Void {
    /// Sends `()`.
    public func send() {
        send(())
    }
}

extension Signal {
    /// The values of `.success` results.
    ///
    /// With ``failures()``, splits the results of a flattened ``Producer`` for a view model:
    /// rows from the values, an error message from the failures.
    public func successes<Success, Failure>() -> Signal<Success> where Value == Result<Success, Failure> {
        compactMap { result in
            if case .success(let value) = result { value } else { nil }
        }
    }

    /// The errors of `.failure` results.
    public func failures<Success, Failure>() -> Signal<Failure> where Value == Result<Success, Failure> {
        compactMap { result in
            if case .failure(let error) = result { error } else { nil }
        }
    }
}
