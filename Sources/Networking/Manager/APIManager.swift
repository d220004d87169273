import Dispatch
import Foundation
import Synchronization

/// The call site of one API: call, page, cancel, and keep the raw data of the last call.
///
/// Each API is one type: an ``APIDefinition`` saying what differs, and
/// `APIManager<ThatDefinition>` doing the rest through the shared ``APIEngine``. A call
/// is a value: ``call(with:page:reformer:)`` makes it a `Producer` whose run carries its
/// parameters and ends with the reformed data or the failed ``APIResult``, handed from
/// the manager to the run. Code that wants a delegate instead calls ``loadData(ignoringCache:)``
/// and hears of every call in its `delegate`, held weakly (a response for a gone delegate
/// is dropped). Freeing the manager cancels its calls.
///
/// A manager lives on the main actor; the engine sends, parses and validates off it, and
/// each outcome comes back to the main actor. The steps of a call, and where each runs,
/// are in <doc:TheLifeOfACall>.
///
/// ```swift
/// @MainActor
/// final class ListingLogic {
///     let manager = APIManager(RentalListAPI(), engine: engine)
///     let activity = Activity<APIResult>()
///     func show(city: String) {
///         let call = manager.call(with: ["city": city], reformer: ListingListReformer())
///         run = call.start(tracking: activity) { [weak self] outcome in
///             if case .success(let listings) = outcome { self?.rows.value = listings }
///         }
///     }
/// }
/// ```
@MainActor
public final class APIManager<Definition: APIDefinition>: APIManaging {
    private struct Call {
        let page: Int
        let parameters: [String: String]
        var task: (any TransportTask)?
        /// Claimed by the first outcome or by cancellation: a response that comes later
        /// is dropped before interceptors and the cache see it.
        let claim = OutcomeClaim()
        /// Where the outcome of a call made by ``APIManager/call(with:page:reform:)``
        /// lands, in place of the delegate; nil for `loadData()` and `loadNextPage()`.
        var landing: Landing? = nil
    }

    /// Where a call's outcome lands: its result, its data on success, and the call.
    typealias Landing = @MainActor (APIResult, JSONValue?, APICall<Definition>) -> Void

    /// How a start went: refused (nothing is reported), or started, with the id of the
    /// call in flight (nil when it ended before it was sent, and its end is queued).
    enum Start {
        case refused
        case started(id: Int?)
    }

    /// What this API supplies.
    public nonisolated let api: Definition
    /// The engine calls go through.
    public nonisolated let engine: APIEngine
    /// Where the results of ``loadData(ignoringCache:)`` and ``loadNextPage()`` land
    /// (held weakly), for code that wants a delegate; a run of ``call(with:page:reform:)``
    /// gets its own outcome instead.
    public weak var delegate: (any APIManagerDelegate)?
    /// Where the parameters of ``loadData(ignoringCache:)`` and ``loadNextPage()`` come
    /// from, held weakly; a run of ``call(with:page:reform:)`` carries its own.
    ///
    /// With no source, those calls are made without parameters.
    public weak var parameterSource: (any APIManagerParameterSource)?
    /// This manager's own interceptors, run after the engine's.
    public var interceptors: [any APIInterceptor] = []
    private var calls: [Int: Call] = [:]
    private var nextCallID = 1
    // Updated just before the delegate hears of an outcome.
    public private(set) var rawData: JSONValue?
    public private(set) var lastResult: APIResult?
    public private(set) var lastParameters: [String: String] = [:]
    private var loadedPage = 0
    private var reachedLastPage = false

    /// A manager for `api` on `engine`.
    public init(_ api: Definition, engine: APIEngine) {
        self.api = api
        self.engine = engine
    }

    isolated deinit {
        for call in calls.values {
            _ = call.claim.take()
            call.task?.cancel()
        }
    }

    // MARK: - APIManaging

    public nonisolated var definition: any APIDefinition { api }
    public var isLoading: Bool { !calls.isEmpty }
    public var isFirstPage: Bool { loadedPage <= 1 }
    public var isLastPage: Bool { api.pageSize == nil || reachedLastPage }

    // MARK: - Calls

    /// Calls the API with the parameter source's parameters.
    ///
    /// A paged API is asked for its first page. Every call that starts ends with exactly
    /// one callback to the delegate, never before this returns (see <doc:TheLifeOfACall>).
    ///
    /// - Parameter ignoringCache: Whether to fetch from the network even if a fresh cached
    ///   response exists.
    /// - Returns: Whether the call started; false when an interceptor or the request
    ///   strategy refused it, and nothing is reported.
    @discardableResult
    public func loadData(ignoringCache: Bool = false) -> Bool {
        start(page: 1, ignoringCache: ignoringCache, given: parameterSource?.parameters(for: self) ?? [:]).didStart
    }

    /// Loads the page after the one held.
    ///
    /// The manager keeps the page number; the caller never does.
    ///
    /// - Returns: Whether the call started; false on the last page, while a call is in
    ///   flight, for an API without pages, or when an interceptor refused it.
    @discardableResult
    public func loadNextPage() -> Bool {
        guard let page = nextPage else { return false }
        return start(page: page, ignoringCache: false, given: parameterSource?.parameters(for: self) ?? [:]).didStart
    }

    /// The page a call for the next page asks for; nil on the last page, while a call is
    /// in flight, or for an API without pages.
    var nextPage: Int? {
        guard api.pageSize != nil, calls.isEmpty, !(loadedPage > 0 && reachedLastPage) else { return nil }
        return loadedPage + 1
    }

    /// Cancels every call in flight.
    ///
    /// Each cancelled call reports ``APIResultKind/cancelled`` to the delegate, and a
    /// response that arrives later is dropped.
    public func cancelAllRequests() {
        cancelCalls(saying: "cancelled")
    }

    /// Cancels every call in flight, each reporting a cancelled result with `message`.
    private func cancelCalls(saying message: String) {
        let cancelled = Array(calls.values)
        calls = [:]
        for call in cancelled {
            _ = call.claim.take()
            call.task?.cancel()
            report(APIResult(kind: .cancelled, message: message), data: nil, call: call)
        }
    }

    /// Cancels call `id` alone, if it is in flight: it reports a cancelled result, and a
    /// response that arrives later is dropped.
    func cancelCall(_ id: Int) {
        guard let call = calls.removeValue(forKey: id) else { return }
        _ = call.claim.take()
        call.task?.cancel()
        report(APIResult(kind: .cancelled, message: "cancelled"), data: nil, call: call)
    }

    /// Starts one call with the caller's parameters `given`, through the steps of
    /// <doc:TheLifeOfACall> in their order; ``Start/refused`` when the call does not
    /// start (steps 3 and 4), and nothing is reported. Its outcome goes to `landing`, or
    /// to the delegate when there is none.
    func start(page: Int, ignoringCache: Bool, given: [String: String], landing: Landing? = nil) -> Start {
        // Steps 1–2: the caller's parameters with the page, checked; a problem ends the call.
        guard case (let service, let parameters)? = validatedParameters(page: page, given: given, landing: landing)
        else { return .started(id: nil) }
        // Step 3: any interceptor may refuse the call.
        let interceptors = engine.interceptors + self.interceptors
        guard shouldCall(parameters, interceptors) else { return .refused }
        // Step 4: the request strategy may refuse the call, or end the calls in flight.
        guard applyRequestStrategy() else { return .refused }
        let call = Call(page: page, parameters: parameters, task: nil, landing: landing)
        let id = register(call)
        // Step 5: with no network the call ends unsent.
        guard engine.reachability.isReachable else {
            finishLater(id, APIResult(kind: .noNetwork, message: "the network is unreachable"), data: nil)
            return .started(id: id)
        }
        // Encoded once, for the cache key and (with no common parameters) the request.
        let encoded = CanonicalParameters.encode(parameters)
        let cacheKey = ResponseCache.key(service: service.name, api: api.methodName, encodedParameters: encoded)
        // Step 6: a fresh cached response answers the call.
        if !ignoringCache, answerFromCache(id, cacheKey: cacheKey, parameters: parameters, interceptors) {
            return .started(id: id)
        }
        // Step 7: the request, built and signed, and the interceptors' `didCall`.
        let request = engine.request(for: api, service: service, parameters: parameters, encodedParameters: encoded)
        for interceptor in interceptors { interceptor.didCall(self, parameters: parameters) }
        // Steps 8–10: send it; the outcome is evaluated off the main actor, then finishes the call.
        send(request, id, call.claim, service: service, cacheKey: cacheKey, interceptors)
        return .started(id: id)
    }

    /// Steps 1–2: the parameters to send, or nil when the call ended as
    /// ``APIResultKind/invalidParameters`` (an unknown service, or a problem the
    /// definition finds in the caller's parameters).
    private func validatedParameters(
        page: Int, given: [String: String], landing: Landing?
    ) -> (APIService, [String: String])? {
        guard let service = engine.services.service(named: api.serviceName) else {
            report(
                APIResult(kind: .invalidParameters, message: "no service named \(api.serviceName)"),
                data: nil, call: Call(page: page, parameters: given, task: nil, landing: landing))
            return nil
        }
        var parameters = given
        if let pageSize = api.pageSize {
            parameters[service.pageKey] = String(page)
            parameters[service.pageSizeKey] = String(pageSize)
        }
        if let problem = api.validateParameters(given) {
            report(
                APIResult(kind: .invalidParameters, message: problem), data: nil,
                call: Call(page: page, parameters: parameters, task: nil, landing: landing))
            return nil
        }
        return (service, parameters)
    }

    /// Step 3: whether every interceptor, app-wide ones first, lets the call go ahead.
    private func shouldCall(_ parameters: [String: String], _ interceptors: [any APIInterceptor]) -> Bool {
        interceptors.allSatisfy { $0.shouldCall(self, parameters: parameters) }
    }

    /// Step 4: whether a new call may start beside the calls in flight; under
    /// ``RequestStrategy/cancelInFlight`` they end as cancelled.
    private func applyRequestStrategy() -> Bool {
        guard !calls.isEmpty else { return true }
        switch api.requestStrategy {
        case .ignoreNewWhileLoading:
            return false
        case .cancelInFlight:
            cancelCalls(saying: "replaced by a newer call")
            return true
        }
    }

    /// Counts `call` as in flight, under a new id.
    private func register(_ call: Call) -> Int {
        let id = nextCallID
        nextCallID += 1
        calls[id] = call
        return id
    }

    /// Step 6: whether a fresh cached response answered call `id`, after `didCall`, as
    /// validated as a fresh one.
    private func answerFromCache(
        _ id: Int, cacheKey: String, parameters: [String: String], _ interceptors: [any APIInterceptor]
    ) -> Bool {
        guard let cached = engine.cache.response(for: cacheKey, policy: api.cachePolicy, now: engine.now()) else {
            return false
        }
        for interceptor in interceptors { interceptor.didCall(self, parameters: parameters) }
        guard let json = try? JSONValue(parsing: cached.body) else {
            finishLater(
                id,
                APIResult(kind: .invalidResponse, message: "the cached response is not valid JSON", isFromCache: true),
                data: nil)
            return true
        }
        let (result, data) = engine.validated(json, definition: api, fromCache: true)
        finishLater(id, result, data: data)
        return true
    }

    /// Step 8: sends call `id`'s request and starts its timeout; the first outcome, the
    /// one that takes `claim`, finishes the call on the main actor.
    private func send(
        _ request: HTTPRequest, _ id: Int, _ claim: OutcomeClaim, service: APIService, cacheKey: String,
        _ interceptors: [any APIInterceptor]
    ) {
        let (engine, api) = (self.engine, self.api)
        let task = engine.transport.send(request, timeout: engine.timeout) { [weak self] outcome in
            guard claim.take() else { return }
            let (result, json) = Self.received(
                outcome, by: self, engine: engine, api: api, service: service, cacheKey: cacheKey, interceptors)
            DispatchQueue.main.async { [weak self] in
                self?.finish(id, result, data: json)
            }
        }
        guard calls[id] != nil else {
            // Cancelled (or replaced) while it was being sent: stop the transport too.
            task.cancel()
            return
        }
        calls[id]?.task = task
        engine.deadlines.add(after: engine.timeout, claim: claim) { [weak self] in
            DispatchQueue.main.async { [weak self] in
                self?.finish(id, APIResult(kind: .timeout, message: "no response in time"), data: nil)
            }
        }
    }

    /// Steps 9–10, off the main actor: interceptors see the response, then it is parsed,
    /// validated and, on success, cached here; only the outcome goes to the main actor.
    private nonisolated static func received(
        _ outcome: Result<HTTPResponse, TransportFailure>, by manager: APIManager?, engine: APIEngine,
        api: Definition, service: APIService, cacheKey: String, _ interceptors: [any APIInterceptor]
    ) -> (APIResult, JSONValue?) {
        if case .success(let response) = outcome, let manager {
            for interceptor in interceptors { interceptor.didReceive(manager, response: response) }
        }
        let (result, json) = engine.evaluate(outcome, definition: api, service: service)
        if result.kind == .success, case .success(let response) = outcome {
            engine.cache.store(response.body, for: cacheKey, policy: api.cachePolicy, now: engine.now())
        }
        return (result, json)
    }

    /// Ends call `id` once the caller's work is done: the call counts as loading until then.
    private func finishLater(_ id: Int, _ result: APIResult, data: JSONValue?) {
        DispatchQueue.main.async { [weak self] in
            self?.finish(id, result, data: data)
        }
    }

    /// Ends call `id` with its first outcome (a response or the timeout, which cancels
    /// the task); a call that already ended, was cancelled or was replaced is dropped.
    private func finish(_ id: Int, _ result: APIResult, data: JSONValue?) {
        guard let call = calls.removeValue(forKey: id) else { return }
        if result.kind == .timeout { call.task?.cancel() }
        report(result, data: data, call: call, isQueued: false)
    }

    /// Applies an outcome and tells interceptors and the call's landing or the delegate.
    /// Outcomes of calls that never reached the network (refused, cancelled) are queued
    /// behind the caller's work, so nobody hears of a call before its start returned;
    /// with neither a landing nor a delegate the outcome is dropped.
    private func report(_ result: APIResult, data: JSONValue?, call: Call, isQueued: Bool = true) {
        guard isQueued else { return apply(result, data: data, call: call) }
        DispatchQueue.main.async { [weak self] in
            self?.apply(result, data: data, call: call)
        }
    }

    private func apply(_ result: APIResult, data: JSONValue?, call: Call) {
        let delegate = self.delegate
        guard call.landing != nil || delegate != nil else { return }
        let interceptors = engine.interceptors + self.interceptors
        lastResult = result
        lastParameters = call.parameters
        if result.kind == .success, let data {
            rawData = data
            if let pageSize = api.pageSize {
                loadedPage = call.page
                reachedLastPage = api.pageItemCount(in: data) < pageSize
            }
        }
        if result.kind == .success {
            for interceptor in interceptors { interceptor.willSucceed(self) }
            if let landing = call.landing {
                landing(result, data, described(call, result))
            } else {
                delegate?.apiManagerDidSucceed(self)
            }
            for interceptor in interceptors { interceptor.didSucceed(self) }
        } else {
            for interceptor in interceptors { interceptor.willFail(self) }
            if let landing = call.landing {
                landing(result, nil, described(call, result))
            } else {
                delegate?.apiManagerDidFail(self)
            }
            for interceptor in interceptors { interceptor.didFail(self) }
        }
    }

    /// `call` as its reformer is told of it, once its outcome is applied.
    private func described(_ call: Call, _ result: APIResult) -> APICall<Definition> {
        APICall(
            definition: api, parameters: call.parameters, page: call.page, isFirstPage: call.page <= 1,
            isLastPage: isLastPage, isFromCache: result.isFromCache)
    }
}

/// Who ended a call first: its response, its timeout, or a cancellation.
final class OutcomeClaim: Sendable {
    private let claimed = Atomic(false)

    /// True for the first caller only.
    func take() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Whether the call has ended (someone took the claim).
    var isTaken: Bool {
        claimed.load(ordering: .acquiring)
    }
}

extension APIManager.Start {
    /// Whether the call started (`loadData()`'s answer).
    var didStart: Bool {
        if case .refused = self { return false }
        return true
    }
}
