/// How a manager treats a new call while one is in flight.
public enum RequestStrategy: Sendable, Equatable {
    /// Ignore the new call (a refresh while refreshing).
    case ignoreNewWhileLoading
    /// Cancel the call in flight for the new one (a new filter replaces the old).
    case cancelInFlight
}

/// What one API supplies to its manager: only what differs from other APIs.
///
/// The engine does the rest (building, signing, sending, caching, validating, logging).
///
/// ```swift
/// struct RentalListAPI: APIDefinition {
///     let serviceName = "rentals"
///     let methodName = "rentals/list"
///     let pageSize: Int? = 20
///     let cachePolicy = CachePolicy.memory()
///     func validateParameters(_ parameters: [String: String]) -> String? {
///         parameters["city"] == nil ? "choose a city" : nil
///     }
/// }
/// typealias RentalListAPIManager = APIManager<RentalListAPI>
/// ```
public protocol APIDefinition: Sendable {
    /// The registered service this API belongs to.
    var serviceName: String { get }
    /// The method name: the path after the service's base URL, and the name that is signed.
    var methodName: String { get }
    /// The HTTP verb, GET unless stated.
    var httpMethod: HTTPMethod { get }
    /// What a new call does while one is in flight.
    ///
    /// Unless stated, the new call is ignored.
    var requestStrategy: RequestStrategy { get }
    /// Whether responses are cached, never unless stated.
    var cachePolicy: CachePolicy { get }
    /// The page size of a paged API, or nil for an API without pages.
    var pageSize: Int? { get }
    /// Checks the caller's parameters before anything is sent.
    ///
    /// The paging parameters are not among them: they are added after the check.
    ///
    /// - Parameter parameters: The parameters the parameter source gave.
    /// - Returns: Nil when they are valid; otherwise the message the call fails with, as
    ///   ``APIResultKind/invalidParameters``.
    func validateParameters(_ parameters: [String: String]) -> String?
    /// Checks the shape of a response, fresh or cached.
    ///
    /// - Parameter response: The parsed body of a successful response.
    /// - Returns: Nil when it is valid; otherwise the message the call fails with, as
    ///   ``APIResultKind/invalidResponse``.
    func validateResponse(_ response: JSONValue) -> String?
    /// How many items a page response holds.
    ///
    /// A page with fewer than `pageSize` items is the last.
    func pageItemCount(in response: JSONValue) -> Int
}

extension APIDefinition {
    /// GET.
    public var httpMethod: HTTPMethod { .get }
    /// Ignore new calls while loading.
    public var requestStrategy: RequestStrategy { .ignoreNewWhileLoading }
    /// No caching.
    public var cachePolicy: CachePolicy { .none }
    /// Not paged.
    public var pageSize: Int? { nil }
    /// Every parameter set is valid.
    public func validateParameters(_ parameters: [String: String]) -> String? { nil }
    /// Every response is valid.
    public func validateResponse(_ response: JSONValue) -> String? { nil }
    /// The length of the response's `items` array.
    public func pageItemCount(in response: JSONValue) -> Int { response["items"]?.arrayValue?.count ?? 0 }
}

/// What a call ended with.
///
/// There is no "unknown" default: a manager that has not finished a call has no result at
/// all.
public enum APIResultKind: Sendable, Equatable {
    /// Data arrived and passed validation.
    case success
    /// The server answered without content (204 or an empty body).
    case noContent
    /// The parameters failed validation; nothing was sent.
    case invalidParameters
    /// The response was malformed or failed validation.
    case invalidResponse
    /// No response in time.
    case timeout
    /// The network is unreachable.
    case noNetwork
    /// The call was cancelled (by `cancelAllRequests()` or a newer call).
    case cancelled
    /// The server reported an error, with its HTTP status.
    case serverError(status: Int)
    /// The server rejected the request's signature.
    case signatureRejected
}

/// The outcome of one call as the delegate sees it.
public struct APIResult: Sendable, Equatable {
    /// What happened.
    public let kind: APIResultKind
    /// The server's message or the engine's explanation, if there is one.
    public let message: String?
    /// Whether the data came from the cache rather than the network.
    public let isFromCache: Bool

    /// Creates a result.
    public init(kind: APIResultKind, message: String? = nil, isFromCache: Bool = false) {
        self.kind = kind
        self.message = message
        self.isFromCache = isFromCache
    }
}
