import Signals
import Synchronization

/// Which page a call of an ``APIManager`` asks for.
public enum APICallPage: Sendable, Equatable {
    /// The first page (or the only one), from the cache when fresh unless `ignoringCache`.
    case first(ignoringCache: Bool)
    /// The page after the one the manager holds.
    case next
}

/// A failed call's result is the failure of its producer.
extension APIResult: Error {}

extension APIManager {
    /// One call of this API as a `Producer`, for a logic to track with an `Activity`: the
    /// primary way to call an API.
    ///
    /// Each run asks the manager for `page` with `parameters` and ends, on the main actor,
    /// with what `reform` makes of the call's data, then completion, sent in one
    /// `withBatchedChanges` (what a logic derives from the value and from an `Activity`
    /// tracking the run changes once), or with the failed ``APIResult``. The outcome goes
    /// from the manager to the run directly: no delegate, no parameter source, no
    /// `rawData` read back. A run may be started on any thread: on the main actor its call
    /// starts before `start` returns, elsewhere it is queued to the main actor. Disposing
    /// a run that is still going cancels its call, and nothing more reaches the run. A
    /// call cancelled by someone else (``cancelAllRequests()``, or a newer call of an API
    /// that cancels the call in flight) fails its run with ``APIResultKind/cancelled``.
    /// The steps of a call are in <doc:TheLifeOfACall>.
    ///
    /// ```swift
    /// let call = manager.call(with: ["id": "3"]) { data, call in DetailReformer().reform(data, of: call) }
    /// run = call.start(tracking: activity) { outcome in show(outcome) }
    /// ```
    ///
    /// - Parameters:
    ///   - parameters: The parameters of every run's call; the manager adds the paging
    ///     parameters.
    ///   - page: Which page each run asks for; the first, from the cache when fresh, unless
    ///     given.
    ///   - reform: Makes the run's one value of the call's validated data, told the call
    ///     (its definition, parameters and page) as a typed value.
    /// - Returns: A producer whose every start makes one call. It fails with the call's
    ///   ``APIResult``, at once when the call does not start.
    public nonisolated func call<Output: Sendable>(
        with parameters: [String: String] = [:], page: APICallPage = .first(ignoringCache: false),
        reform: @escaping @Sendable (JSONValue, APICall<Definition>) -> Output
    ) -> Producer<Output, APIResult> {
        Producer { input in
            let run = APICallRun()
            MainScheduler.perform { self.begin(run, parameters: parameters, page: page, input: input, reform: reform) }
            return AnyDisposable {
                // A run that ended has no call to cancel, and skips the hop.
                guard run.stop() else { return }
                MainScheduler.perform { if let id = run.callID { self.cancelCall(id) } }
            }
        }
    }

    /// One call of this API as a `Producer`, its data reformed by `reformer`; see
    /// ``call(with:page:reform:)``.
    ///
    /// ```swift
    /// let page = manager.call(with: ["city": "shanghai"], page: .next, reformer: ListingListReformer())
    /// ```
    public nonisolated func call<Reformer: APICallReformer>(
        with parameters: [String: String] = [:], page: APICallPage = .first(ignoringCache: false),
        reformer: Reformer
    ) -> Producer<Reformer.Output, APIResult> where Reformer.Definition == Definition {
        call(with: parameters, page: page) { data, call in reformer.reform(data, of: call) }
    }

    /// Starts the call of `run`, unless the run was disposed first; its outcome lands in
    /// `input`.
    private func begin<Output: Sendable>(
        _ run: APICallRun, parameters: [String: String], page: APICallPage,
        input: Producer<Output, APIResult>.Input,
        reform: @escaping @Sendable (JSONValue, APICall<Definition>) -> Output
    ) {
        guard !run.isStopped else { return }
        let landing: Landing = { result, data, call in
            run.callID = nil
            guard result.kind == .success else { return input.send(failure: result) }
            let value = reform(data ?? .null, call)
            // The value and the end in one batch: what a logic derives from both the value
            // it keeps and the activity tracking the run (loading, the problem) changes once.
            withBatchedChanges {
                input.send(value)
                input.sendCompleted()
            }
        }
        let started: Start
        switch page {
        case .first(let ignoringCache):
            started = start(page: 1, ignoringCache: ignoringCache, given: parameters, landing: landing)
        case .next:
            started =
                nextPage.map { start(page: $0, ignoringCache: false, given: parameters, landing: landing) }
                ?? .refused
        }
        switch started {
        case .refused: input.send(failure: APIResult(kind: .cancelled, message: "the call did not start"))
        case .started(let id): run.callID = id
        }
    }
}

extension Producer where Failure == APIResult {
    /// Starts a run of an API call and calls `ended` once, on the main actor, when it ends.
    ///
    /// `ended` gets the run's first value or its failure as it is delivered: for a call of
    /// ``APIManager/call(with:page:reform:)``, in the batch of the run's end. An
    /// `Activity` tracking the producer (`activity.track(call)`) has been told of a failure
    /// by then, of a success within the same batch, as its forwarder passes the outcome
    /// on; ``start(tracking:ended:)`` tells an activity without standing on the path.
    ///
    /// - Parameter ended: Called with the run's first value, or with its failure (a run
    ///   that completes without a value fails with ``APIResultKind/noContent``).
    /// - Returns: The run; disposing it stops the run, and `ended` is not called.
    @MainActor @discardableResult
    public func start(ended: @escaping @MainActor (Result<Value, APIResult>) -> Void) -> Disposable {
        start(EndedRun(), ended: ended)
    }

    /// Starts a run of an API call tracked by `activity`, and calls `ended` once, on the
    /// main actor, when it ends: a logic's call.
    ///
    /// The run's outcome goes from the run to `ended` directly; `activity` is told of the
    /// run beside it (`Activity.begin()` now, its end with the run's), not handed
    /// the outcome to pass on, as `activity.track(producer).start(ended:)`
    /// would. For a call of ``APIManager/call(with:page:reform:)``, `ended` and the
    /// activity's end are in the batch of the run's end, so what a logic stores in `ended`
    /// and what it derives from `activity` change together: a failure is the activity's
    /// before `ended` hears of it, a success lands before the activity stops running.
    ///
    /// ```swift
    /// run = manager.call(with: filters, reformer: ListingListReformer())
    ///     .start(tracking: activity) { [weak self] outcome in self?.land(outcome) }
    /// ```
    ///
    /// - Parameters:
    ///   - activity: Counts the run as running from now until it ends or is disposed, and
    ///     keeps its failure.
    ///   - ended: Called with the run's first value, or with its failure (a run that
    ///     completes without a value fails with ``APIResultKind/noContent``).
    /// - Returns: The run; disposing it stops the run and ends it for `activity` (with no
    ///   failure), and `ended` is not called.
    @MainActor @discardableResult
    public func start(
        tracking activity: Activity<APIResult>, ended: @escaping @MainActor (Result<Value, APIResult>) -> Void
    ) -> Disposable {
        start(EndedRun(endingActivity: activity.begin()), ended: ended)
    }

    /// Starts a run whose outcome goes to `ended` once, telling `run`'s activity (if any)
    /// of the end: first for a failure, after `ended` for a value; disposing the run ends
    /// it for the activity with no failure. Inlined into both starts: called, it cost each call of
    /// `networking-bench`'s `call-unsigned` 2,300-3,000 instructions more (callgrind).
    @MainActor @inline(__always)
    private func start(
        _ run: EndedRun, ended: @escaping @MainActor (Result<Value, APIResult>) -> Void
    ) -> Disposable {
        let outcomes = signal()
        let values = outcomes.observeOnMainActor { outcome in
            guard run.claim() else { return }
            guard case .failure(let failure) = outcome else { return ended(outcome) }
            // What `ended` does with the failure changes with the activity's failure.
            withBatchedChanges {
                run.end(failing: failure)
                ended(outcome)
            }
        }
        let completion = outcomes.observeCompleted {
            // Behind any value still queued to the main actor for `ended`.
            MainScheduler.perform {
                guard run.claim() else { return run.end(failing: nil) }
                withBatchedChanges {
                    run.end(failing: APIResult(kind: .noContent))
                    ended(.failure(APIResult(kind: .noContent)))
                }
            }
        }
        return AnyDisposable {
            _ = run.claim()
            values.dispose()
            completion.dispose()
            run.end(failing: nil)
        }
    }
}

/// One run of ``APIManager/call(with:page:reform:)``: whether it was disposed, and the id
/// of its call in flight, set on the main actor.
final class APICallRun: Sendable {
    private let stopped = Atomic(false)
    private let id = Atomic(0)

    /// Whether the run was disposed.
    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Whether the run's call landed (its outcome reached the run).
    private let landed = Atomic(false)

    /// The id of the run's call while it is in flight; nil before it started, once it
    /// landed, or when it ended unsent. Setting nil marks the call landed.
    var callID: Int? {
        get {
            let value = id.load(ordering: .acquiring)
            return value == 0 ? nil : value
        }
        set {
            if newValue == nil { landed.store(true, ordering: .releasing) }
            id.store(newValue ?? 0, ordering: .releasing)
        }
    }

    /// Marks the run disposed: a call not yet begun never starts. Returns whether the
    /// run may still have a call to cancel: false once its call landed.
    func stop() -> Bool {
        stopped.store(true, ordering: .releasing)
        return !landed.load(ordering: .acquiring)
    }
}

/// One run of ``Producer/start(ended:)`` or ``Producer/start(tracking:ended:)``: whether
/// its `ended` was called (or the run disposed), claimed once from any thread, and, when an
/// activity tracks it, the end of the activity's count, told once (later calls do nothing).
final class EndedRun: Sendable {
    private let claimed = Atomic(false)
    private let endActivity: (@Sendable (APIResult?) -> Void)?

    init(endingActivity endActivity: (@Sendable (APIResult?) -> Void)? = nil) {
        self.endActivity = endActivity
    }

    /// True for the first caller only: the one that calls `ended`, or the disposal.
    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Ends the run for its activity, with `failure` or successfully; later calls do nothing.
    func end(failing failure: APIResult?) {
        endActivity?(failure)
    }
}
