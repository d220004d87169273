import Dispatch
import Foundation

/// The call site of one API: load, page, cancel, and keep the raw data of the last call.
///
/// Each API is one type: an `APIDefinition` saying what differs, and
/// `APIManager<ThatDefinition>` doing the rest through the shared `APIEngine`. Results
/// land in one place, the `delegate`, which is held weakly: a response for a gone delegate
/// is dropped, and freeing the manager cancels its calls.
///
/// ```swift
/// final class ListingLogic: APIManagerDelegate, APIManagerParameterSource {
///     let manager = APIManager(RentalListAPI(), engine: engine)
///     init() { manager.delegate = self; manager.parameterSource = self }
///     func parameters(for manager: any APIManaging) -> [String: String] { ["city": "sh"] }
///     func apiManagerDidSucceed(_ manager: any APIManaging) {
///         rows = manager.fetchData(with: ListingListReformer())
///     }
///     func apiManagerDidFail(_ manager: any APIManaging) { error = manager.lastResult?.message }
/// }
/// ```
public final class APIManager<Definition: APIDefinition>: APIManaging, @unchecked Sendable {
    private struct Call {
        let page: Int
        let parameters: [String: String]
        var task: (any TransportTask)?
        /// Set by the first outcome (response, timeout); later ones are ignored.
        var isFinishing = false
    }

    /// What this API supplies.
    public let api: Definition
    /// The engine calls go through.
    public let engine: APIEngine
    private let lock = NSLock()
    private weak var delegateReference: (any APIManagerDelegate)?
    private weak var parameterSourceReference: (any APIManagerParameterSource)?
    private var ownInterceptors: [any APIInterceptor] = []
    private var calls: [Int: Call] = [:]
    private var nextCallID = 1
    // Updated on the callback queue, just before the delegate hears of it.
    private var raw: JSONValue?
    private var result: APIResult?
    private var parametersOfLastCall: [String: String] = [:]
    private var loadedPage = 0
    private var reachedLastPage = false

    /// A manager for `api` on `engine`.
    public init(_ api: Definition, engine: APIEngine) {
        self.api = api
        self.engine = engine
    }

    deinit {
        for call in calls.values { call.task?.cancel() }
    }

    /// Where results land (held weakly).
    public var delegate: (any APIManagerDelegate)? {
        get { locked { delegateReference } }
        set { locked { delegateReference = newValue } }
    }

    /// Where parameters come from (held weakly); no source means no parameters.
    public var parameterSource: (any APIManagerParameterSource)? {
        get { locked { parameterSourceReference } }
        set { locked { parameterSourceReference = newValue } }
    }

    /// This manager's own interceptors, run after the engine's.
    public var interceptors: [any APIInterceptor] {
        get { locked { ownInterceptors } }
        set { locked { ownInterceptors = newValue } }
    }

    // MARK: - APIManaging

    public var definition: any APIDefinition { api }
    public var rawData: JSONValue? { locked { raw } }
    public var lastResult: APIResult? { locked { result } }
    public var lastParameters: [String: String] { locked { parametersOfLastCall } }
    public var isLoading: Bool { locked { !calls.isEmpty } }
    public var isFirstPage: Bool { locked { loadedPage <= 1 } }
    public var isLastPage: Bool { locked { api.pageSize == nil || reachedLastPage } }

    // MARK: - Calls

    /// Calls the API with the parameter source's parameters (the first page of a paged
    /// API). Returns false when the call did not start: refused by an interceptor or by
    /// the request strategy. Every call that starts ends with exactly one callback.
    ///
    /// - Parameter ignoringCache: fetch from the network even if a fresh cached response exists.
    @discardableResult
    public func loadData(ignoringCache: Bool = false) -> Bool {
        start(page: 1, ignoringCache: ignoringCache)
    }

    /// Loads the page after the one held. Returns false on the last page, while a call is
    /// in flight, or for an API without pages. The caller never keeps a page number.
    @discardableResult
    public func loadNextPage() -> Bool {
        guard api.pageSize != nil else { return false }
        let next: Int? = locked {
            guard calls.isEmpty, !(loadedPage > 0 && reachedLastPage) else { return nil }
            return loadedPage + 1
        }
        guard let next else { return false }
        return start(page: next, ignoringCache: false)
    }

    /// Cancels every call in flight; each reports `cancelled` to the delegate.
    public func cancelAllRequests() {
        let cancelled: [Call] = locked {
            defer { calls = [:] }
            return Array(calls.values)
        }
        for call in cancelled {
            call.task?.cancel()
            report(APIResult(kind: .cancelled, message: "cancelled"), data: nil, call: call)
        }
    }

    private func start(page: Int, ignoringCache: Bool) -> Bool {
        let source = parameterSource
        let given = source?.parameters(for: self) ?? [:]
        guard let service = engine.services.service(named: api.serviceName) else {
            report(APIResult(kind: .invalidParameters, message: "no service named \(api.serviceName)"),
                   data: nil, call: Call(page: page, parameters: given, task: nil))
            return true
        }
        var parameters = given
        if let pageSize = api.pageSize {
            parameters[service.pageKey] = String(page)
            parameters[service.pageSizeKey] = String(pageSize)
        }
        if let problem = api.validateParameters(given) {
            report(APIResult(kind: .invalidParameters, message: problem), data: nil,
                   call: Call(page: page, parameters: parameters, task: nil))
            return true
        }
        let interceptors = engine.interceptors + self.interceptors
        for interceptor in interceptors where !interceptor.shouldCall(self, parameters: parameters) {
            return false
        }
        let (id, replaced): (Int?, [Call]) = locked {
            var replaced: [Call] = []
            if !calls.isEmpty {
                switch api.requestStrategy {
                case .ignoreNewWhileLoading: return (nil, [])
                case .cancelInFlight:
                    replaced = Array(calls.values)
                    calls = [:]
                }
            }
            let id = nextCallID
            nextCallID += 1
            calls[id] = Call(page: page, parameters: parameters, task: nil)
            return (id, replaced)
        }
        for call in replaced {
            call.task?.cancel()
            report(APIResult(kind: .cancelled, message: "replaced by a newer call"), data: nil, call: call)
        }
        guard let id else { return false }
        guard engine.reachability.isReachable else {
            finish(id) { _ in (APIResult(kind: .noNetwork, message: "the network is unreachable"), nil) }
            return true
        }
        let cacheKey = ResponseCache.key(service: service.name, api: api.methodName, parameters: parameters)
        if !ignoringCache, let cached = engine.cache.response(for: cacheKey, policy: api.cachePolicy, now: engine.now()) {
            for interceptor in interceptors { interceptor.didCall(self, parameters: parameters) }
            finish(id) { manager in
                guard let json = try? JSONValue(parsing: cached.body) else {
                    return (APIResult(kind: .invalidResponse, message: "the cached response is not valid JSON",
                                      isFromCache: true), nil)
                }
                return manager.engine.validated(json, definition: manager.api, fromCache: true)
            }
            return true
        }
        let request = engine.request(for: api, service: service, parameters: parameters)
        for interceptor in interceptors { interceptor.didCall(self, parameters: parameters) }
        let task = engine.transport.send(request, timeout: engine.timeout) { [weak self] outcome in
            self?.received(outcome, id: id, service: service, cacheKey: cacheKey)
        }
        let stillRunning: Bool = locked {
            guard calls[id] != nil else { return false }
            calls[id]?.task = task
            return true
        }
        guard stillRunning else {
            // Cancelled (or replaced) while it was being sent: stop the transport too.
            task.cancel()
            return true
        }
        let deadline = DispatchTime.now() + .nanoseconds(InProcessTransport.nanoseconds(engine.timeout))
        DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
            self?.received(.failure(.timeout), id: id, service: service, cacheKey: cacheKey)
        }
        return true
    }

    private func received(
        _ outcome: Result<HTTPResponse, TransportFailure>,
        id: Int,
        service: APIService,
        cacheKey: String
    ) {
        finish(id) { manager in
            if case .success(let response) = outcome {
                let interceptors = manager.engine.interceptors + manager.interceptors
                for interceptor in interceptors { interceptor.didReceive(manager, response: response) }
            }
            let (result, json) = manager.engine.evaluate(outcome, definition: manager.api, service: service)
            if result.kind == .success, case .success(let response) = outcome {
                manager.engine.cache.store(response.body, for: cacheKey, policy: manager.api.cachePolicy,
                                           now: manager.engine.now())
            }
            return (result, json)
        }
    }

    /// Ends call `id` once: the first outcome claims it (a timeout cancels its task), is
    /// evaluated here, and is applied on the callback queue. The call counts as loading
    /// until then, and if it was cancelled or replaced meanwhile it is dropped there.
    private func finish(_ id: Int, evaluate: (APIManager) -> (APIResult, JSONValue?)) {
        let claimed: Call? = locked {
            guard var call = calls[id], !call.isFinishing else { return nil }
            call.isFinishing = true
            calls[id] = call
            return call
        }
        guard let call = claimed else { return }
        let (result, json) = evaluate(self)
        if result.kind == .timeout { call.task?.cancel() }
        report(result, data: json, call: call, id: id)
    }

    /// Applies an outcome and tells interceptors and the delegate, on the callback queue.
    /// A registered call (`id`) that is no longer registered by then was cancelled and
    /// is dropped; with no delegate left the outcome is dropped too.
    private func report(_ result: APIResult, data: JSONValue?, call: Call, id: Int? = nil) {
        let interceptors = engine.interceptors + self.interceptors
        engine.callbackQueue.async { [weak self] in
            guard let self else { return }
            let pageSize = self.api.pageSize
            let delegate: (any APIManagerDelegate)? = self.locked {
                if let id, self.calls.removeValue(forKey: id) == nil { return nil }
                guard let delegate = self.delegateReference else { return nil }
                self.result = result
                self.parametersOfLastCall = call.parameters
                if result.kind == .success, let data {
                    self.raw = data
                    if let pageSize {
                        self.loadedPage = call.page
                        self.reachedLastPage = self.api.pageItemCount(in: data) < pageSize
                    }
                }
                return delegate
            }
            guard let delegate else { return }
            if result.kind == .success {
                for interceptor in interceptors { interceptor.willSucceed(self) }
                delegate.apiManagerDidSucceed(self)
                for interceptor in interceptors { interceptor.didSucceed(self) }
            } else {
                for interceptor in interceptors { interceptor.willFail(self) }
                delegate.apiManagerDidFail(self)
                for interceptor in interceptors { interceptor.didFail(self) }
            }
        }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
