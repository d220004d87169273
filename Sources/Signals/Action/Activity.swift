/// Whether tracked work is running, and the failure it last ended with.
///
/// It is a screen's `isLoading` and `problem`, kept in one place instead of set by hand.
/// Wrap each request in ``track(_:)-(Producer<Value,Failure>)``; bind ``isRunning`` to a spinner and ``failure`` to
/// an error line. One tracker may follow several kinds of work at once (it counts the
/// runs in flight), as RxSwift apps use `ActivityIndicator` and `ErrorTracker`.
///
/// ```swift
/// let activity = Activity<APIError>()
/// let rows = queries.flatMapLatest { query in activity.track(api.search(query)).replaceError(with: []) }
/// let spinner = activity.isRunning            // Property<Bool>
/// let message = activity.failure.map { $0.map(describe) }
/// ```
// Safe to share: every stored property is a `let` of a Sendable type.
public final class Activity<Failure: Error>: Sendable {
    /// Whether a tracked run is in progress, notifying only when that changes.
    public let isRunning: Property<Bool>
    /// The failure of the last tracked run that failed, until a tracked run starts again.
    public let failure: Property<Failure?>

    private let running = MutableProperty(0)
    fileprivate let lastFailure = MutableProperty<Failure?>(nil)
    /// The observations of the actions this tracker follows, ended with it.
    fileprivate let actions = DisposeBag()

    /// Creates a tracker with nothing running and no failure.
    public init() {
        isRunning = running.map { $0 > 0 }
        failure = Property(lastFailure)
    }

    /// Returns `producer` with every run tracked by this activity.
    ///
    /// A run counts as running from its start until it ends or is disposed; starting
    /// clears ``failure``, failing sets it. The tracker is told before the run's observer
    /// gets the event that ends it.
    public func track<Value: Sendable>(_ producer: Producer<Value, Failure>) -> Producer<Value, Failure> {
        Producer { input in
            let end = self.begin()
            let run = producer.start(
                value: { input.send($0) },
                failed: { failure in
                    end(failure)
                    input.send(failure: failure)
                },
                completed: {
                    end(nil)
                    input.sendCompleted()
                })
            return AnyDisposable {
                run.dispose()
                end(nil)
            }
        }
    }

    /// Counts a run of work that is neither a producer nor a signal, from now until the
    /// returned closure is called with the failure the run ended with, or nil; only its
    /// first call counts.
    ///
    /// For code that stands beside the work rather than on its path: a call whose outcome
    /// goes straight to its logic tells its activity here, without a run of its own.
    ///
    /// ```swift
    /// let end = activity.begin()
    /// upload.resume { error in end(error) }
    /// ```
    public func begin() -> @Sendable (Failure?) -> Void {
        started()
        let ended = AtomicFlag()
        return { failure in if !ended.exchange(true) { self.ended(failing: failure) } }
    }

    /// Returns `signal` with its run tracked by this activity.
    ///
    /// A signal's run is the one start of its work, at its first observer (contract
    /// 4.10): the returned signal counts as running from then until `signal` completes or
    /// the returned signal lets go of it (its last observer left after it was released).
    /// Starting clears ``failure``; a signal cannot fail, so it never sets it. The tracker
    /// is told before the observer gets the completion. Track a signal that stands for
    /// work (an inner of `flatMapLatest`, one made from work); a stream of events such as a
    /// pipe counts as running for as long as it is observed.
    ///
    /// ```swift
    /// let homes = filters.flatMapLatest { filters in activity.track(store.homes(matching: filters)) }
    /// ```
    public func track<Value: Sendable>(_ signal: Signal<Value>) -> Signal<Value> {
        signal.derivedInDelivery { output in
            let ended = AtomicFlag()
            output.onStart {
                self.started()
                output.addUpstream(AnyDisposable { if !ended.exchange(true) { self.ended(failing: nil) } })
            }
            signal.forward(
                to: output, value: { output.sendInDelivery($0) },
                completed: {
                    if !ended.exchange(true) { self.ended(failing: nil) }
                    output.sendCompleted()
                })
        }
    }

    // Each of these changes both properties in one batch: what is derived from both (a
    // screen's state) changes once per start or end, never showing "not running, no
    // failure yet" between the two.

    fileprivate func started() {
        withBatchedChanges {
            running.update { $0 + 1 }
            // One atomic step: a failure set by a run that ends meanwhile is not erased by a
            // read of the old one.
            lastFailure.update { current in current == nil ? nil : .some(nil) }
        }
    }

    fileprivate func ended(failing failure: Failure?) {
        withBatchedChanges {
            if let failure { lastFailure.value = failure }
            running.update { $0 - 1 }
        }
    }
}

extension Activity where Failure == any Error {
    /// Tracks the runs of `action` too, until the tracker is freed.
    ///
    /// Each run counts as running while it executes, and its error (a `CancellationError`
    /// when it is cancelled) becomes ``failure``, as for a tracked producer.
    ///
    /// ```swift
    /// let activity = Activity<any Error>()
    /// activity.track(login)
    /// activity.track(refresh)        // one spinner for both
    /// ```
    public func track<Input: Sendable, Output: Sendable>(_ action: Action<Input, Output>) {
        let wasExecuting = AtomicFlag()
        action.isExecuting.observe { [weak self] executing in
            guard let self, wasExecuting.exchange(executing) != executing else { return }
            if executing { self.started() } else { self.ended(failing: nil) }
        }.dispose(in: actions)
        action.errors.observe { [weak self] error in self?.lastFailure.value = error }.dispose(in: actions)
    }
}
