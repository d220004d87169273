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
    /// One call of this API as a `Producer`, for a logic to track with an `Activity`.
    ///
    /// A logic that tracks the call need not keep its loading and problem state by hand.
    /// Each run asks the manager for `page` with `parameters`, and ends with `reform` of the
    /// manager then completion, sent in one `withBatchedChanges` (what a logic derives from
    /// the value and from an `Activity` tracking the run changes once), or with the failed
    /// ``APIResult``. Disposing a run that is
    /// still going cancels its call. Runs are started and disposed on the main actor, where
    /// the manager lives. How a run owns the manager, and why a cancelled outcome never
    /// ends one, is in <doc:TheLifeOfACall>.
    ///
    /// ```swift
    /// let call = manager.producer(parameters: ["id": "3"]) { $0.fetchData(with: DetailReformer()) }
    /// run = activity.track(call).start { outcome in show(outcome) }
    /// ```
    ///
    /// - Parameters:
    ///   - parameters: The parameters of every run's call, in place of the manager's
    ///     parameter source.
    ///   - page: Which page each run asks for; the first, from the cache when fresh, unless
    ///     given.
    ///   - reform: Reads the manager's data (and its pages) once the call succeeded; its
    ///     result is the run's one value.
    /// - Returns: A producer whose every start makes one call. It fails with the call's
    ///   ``APIResult``, at once when the call does not start.
    public nonisolated func producer<Output: Sendable>(
        parameters: [String: String], page: APICallPage = .first(ignoringCache: false),
        reform: @escaping @MainActor @Sendable (APIManager) -> Output
    ) -> Producer<Output, APIResult> {
        Producer { input in
            MainActor.assumeIsolated {
                let run = APICallRun(manager: self, parameters: parameters, input: input, reform: reform)
                run.start(page)
                return AnyDisposable { MainActor.assumeIsolated { run.stop() } }
            }
        }
    }
}

extension Producer where Failure == APIResult {
    /// Starts a run of an API call and calls `ended` once, on the main actor, when it ends.
    ///
    /// An `Activity` tracking the call has been told by then, so `ended` reads it current.
    ///
    /// - Parameter ended: Called with the run's last value, or with its failure (a run
    ///   that completes without a value fails with ``APIResultKind/noContent``).
    /// - Returns: The run; disposing it stops the run, and `ended` is not called.
    @MainActor @discardableResult
    public func start(ended: @escaping @MainActor (Result<Value, APIResult>) -> Void) -> Disposable {
        let last = Mutex<Value?>(nil)
        let end: @Sendable (Result<Value, APIResult>) -> Void = { outcome in MainActor.assumeIsolated { ended(outcome) }
        }
        return start(
            value: { value in last.withLock { $0 = value } },
            failed: { end(.failure($0)) },
            completed: {
                guard let value = last.withLock({ $0 }) else { return end(.failure(APIResult(kind: .noContent))) }
                end(.success(value))
            })
    }
}

/// One run of ``APIManager/producer(parameters:page:reform:)``: its manager's delegate
/// and parameter source while its call goes.
@MainActor
private final class APICallRun<Definition: APIDefinition, Output: Sendable>: APIManagerDelegate,
    APIManagerParameterSource
{
    let manager: APIManager<Definition>
    let parameters: [String: String]
    let input: Producer<Output, APIResult>.Input
    let reform: @MainActor @Sendable (APIManager<Definition>) -> Output

    init(
        manager: APIManager<Definition>, parameters: [String: String], input: Producer<Output, APIResult>.Input,
        reform: @escaping @MainActor @Sendable (APIManager<Definition>) -> Output
    ) {
        self.manager = manager
        self.parameters = parameters
        self.input = input
        self.reform = reform
    }

    func start(_ page: APICallPage) {
        manager.parameterSource = self
        let started: Bool
        switch page {
        case .first(let ignoringCache): started = manager.loadData(ignoringCache: ignoringCache)
        case .next: started = manager.loadNextPage()
        }
        // Outcomes are queued behind `loadData`, so the delegate set now hears this call;
        // one that did not start leaves the call in flight, if any, to its own run.
        guard started else {
            return input.send(failure: APIResult(kind: .cancelled, message: "the call did not start"))
        }
        manager.delegate = self
    }

    /// Cancels the call when this run still owns the manager and its call is going.
    func stop() {
        if manager.delegate === self, manager.isLoading { manager.cancelAllRequests() }
    }

    func parameters(for manager: any APIManaging) -> [String: String] {
        parameters
    }

    func apiManagerDidSucceed(_ manager: any APIManaging) {
        // The value and the end in one batch: what a logic derives from both the value it
        // keeps and the activity tracking the run (loading, the problem) changes once.
        withBatchedChanges {
            input.send(reform(self.manager))
            input.sendCompleted()
        }
    }

    func apiManagerDidFail(_ manager: any APIManaging) {
        guard let result = manager.lastResult, result.kind != .cancelled else { return }
        input.send(failure: result)
    }
}
