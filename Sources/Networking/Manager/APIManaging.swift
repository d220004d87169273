/// A manager seen from outside its API type: what delegates, reformers and interceptors use.
///
/// Managers live on the main actor; only `definition` can be read from anywhere.
@MainActor
public protocol APIManaging: AnyObject, Sendable {
    /// The API this manager calls, by which reformers can tell managers apart.
    nonisolated var definition: any APIDefinition { get }
    /// The raw data of the last successful call, kept by the manager.
    var rawData: JSONValue? { get }
    /// The outcome of the last finished call; nil before the first one.
    var lastResult: APIResult? { get }
    /// The parameters the last finished call was sent with.
    var lastParameters: [String: String] { get }
    /// Whether a call is in flight.
    var isLoading: Bool { get }
    /// Whether the data held is the first page (true for an API without pages).
    var isFirstPage: Bool { get }
    /// Whether the data held is the last page (true for an API without pages).
    var isLastPage: Bool { get }
}

@MainActor
extension APIManaging {
    /// The raw data, untouched (what `fetchData(with:)` gives with no reformer).
    public func fetchData() -> JSONValue? {
        rawData
    }

    /// The raw data turned into view-ready data by `reformer`.
    ///
    /// Before any data has arrived, the reformer gets `.null`.
    public func fetchData<Reformer: APIReformer>(with reformer: Reformer) -> Reformer.Output {
        reformer.reform(rawData ?? .null, from: self)
    }
}

/// Turns a manager's raw data into what a view uses.
///
/// A reformer keeps no state. One reformer can normalise several APIs to one shape (it
/// can look at `manager.definition` to tell them apart), and one API can feed several
/// reformers. Keys of reformed dictionaries are named constants of the reformer.
public protocol APIReformer {
    /// The view-ready data.
    associatedtype Output
    /// Reforms `data`, which came from `manager`, on the main actor where managers live.
    @MainActor func reform(_ data: JSONValue, from manager: any APIManaging) -> Output
}

/// The one landing place of a manager's calls, on the main actor with the manager.
@MainActor
public protocol APIManagerDelegate: AnyObject {
    /// Tells the delegate that a call of `manager` succeeded.
    ///
    /// Fetch the data with ``APIManaging/fetchData(with:)``.
    func apiManagerDidSucceed(_ manager: any APIManaging)
    /// Tells the delegate that a call of `manager` failed.
    ///
    /// ``APIManaging/lastResult`` says how.
    func apiManagerDidFail(_ manager: any APIManaging)
}

/// Supplies the parameters of each call, on the main actor with the manager.
@MainActor
public protocol APIManagerParameterSource: AnyObject {
    /// The parameters for the next call of `manager`.
    func parameters(for manager: any APIManaging) -> [String: String]
}

/// Hooks around every call, per manager or app-wide (on the engine).
///
/// App-wide interceptors run before the manager's own at every step. `didReceive` runs on
/// the thread the response arrived on, so parsing stays off the main actor; every other
/// hook runs on the main actor, where managers live. Where each hook falls among the steps
/// of a call is in <doc:TheLifeOfACall>.
public protocol APIInterceptor: AnyObject, Sendable {
    /// Whether the call may go ahead.
    ///
    /// Any interceptor that returns false stops the call silently: the delegate hears
    /// nothing, and `loadData()` returns false.
    func shouldCall(_ manager: any APIManaging, parameters: [String: String]) -> Bool
    /// Tells the interceptor that the call was sent or answered from the cache.
    func didCall(_ manager: any APIManaging, parameters: [String: String])
    /// Tells the interceptor that a response arrived from the network.
    ///
    /// It runs before the response is evaluated, on the thread it arrived on.
    func didReceive(_ manager: any APIManaging, response: HTTPResponse)
    /// Tells the interceptor that a success is about to reach the delegate.
    func willSucceed(_ manager: any APIManaging)
    /// Tells the interceptor that a success reached the delegate.
    func didSucceed(_ manager: any APIManaging)
    /// Tells the interceptor that a failure is about to reach the delegate.
    func willFail(_ manager: any APIManaging)
    /// Tells the interceptor that a failure reached the delegate.
    func didFail(_ manager: any APIManaging)
}

extension APIInterceptor {
    /// Lets every call through.
    public func shouldCall(_ manager: any APIManaging, parameters: [String: String]) -> Bool { true }
    /// Does nothing.
    public func didCall(_ manager: any APIManaging, parameters: [String: String]) {}
    /// Does nothing.
    public func didReceive(_ manager: any APIManaging, response: HTTPResponse) {}
    /// Does nothing.
    public func willSucceed(_ manager: any APIManaging) {}
    /// Does nothing.
    public func didSucceed(_ manager: any APIManaging) {}
    /// Does nothing.
    public func willFail(_ manager: any APIManaging) {}
    /// Does nothing.
    public func didFail(_ manager: any APIManaging) {}
}
