import Dispatch
import Foundation
import Synchronization

/// The shared bottom of the network layer, which every manager's calls go through.
///
/// It holds the services, the transport, the cache, reachability, the app-wide
/// interceptors and the clock. It builds and signs each request on the main actor, then
/// sends, parses, validates and caches off it; managers and their delegates get each
/// outcome on the main actor (see <doc:TheLifeOfACall>).
///
/// ```swift
/// let engine = APIEngine(
///     services: ServiceRegistry([APIService(name: "rentals", baseURL: apiURL, signingSecret: secret)]),
///     transport: URLSessionTransport()
/// )
/// let manager = RentalListAPIManager(RentalListAPI(), engine: engine)
/// ```
public final class APIEngine: Sendable {
    /// The services managers name.
    public let services: ServiceRegistry
    /// How requests go out.
    public let transport: any HTTPTransport
    /// Cached responses.
    public let cache: ResponseCache
    /// Whether the network is reachable.
    public let reachability: NetworkReachability
    /// How long a call may take before it fails with ``APIResultKind/timeout``.
    public let timeout: Duration
    let now: @Sendable () -> Date
    let makeNonce: @Sendable () -> String
    private let appInterceptors = Mutex<[any APIInterceptor]>([])
    /// The timeouts of the calls in flight, on one timer.
    let deadlines = CallDeadlines()

    /// Creates an engine over `services` that sends through `transport`.
    ///
    /// - Parameters:
    ///   - services: The services managers name.
    ///   - transport: How requests go out.
    ///   - cache: Where responses are cached; an empty cache of its own unless given.
    ///   - reachability: The app's word on the network; reachable unless given.
    ///   - timeout: How long a call may take; fifteen seconds unless given.
    ///   - clock: The current time, for signatures and the cache; injectable for tests.
    ///   - nonce: Makes each signed request's nonce, a UUID unless given; injectable for
    ///     tests.
    public init(
        services: ServiceRegistry,
        transport: any HTTPTransport,
        cache: ResponseCache = ResponseCache(),
        reachability: NetworkReachability = NetworkReachability(),
        timeout: Duration = .seconds(15),
        clock: @escaping @Sendable () -> Date = { Date() },
        nonce: @escaping @Sendable () -> String = { UUID().uuidString }
    ) {
        self.services = services
        self.transport = transport
        self.cache = cache
        self.reachability = reachability
        self.timeout = timeout
        self.now = clock
        self.makeNonce = nonce
    }

    /// Interceptors that see every call of every manager, before the manager's own.
    public var interceptors: [any APIInterceptor] {
        get { appInterceptors.withLock { $0 } }
        set {
            // The replaced ones are let go after the lock: an interceptor's deinit may use it.
            var replaced = newValue
            appInterceptors.withLock { swap(&$0, &replaced) }
        }
    }

    /// Builds the HTTP request for one call: common parameters, query or form body, signature.
    ///
    /// `encodedParameters`, when given, is `CanonicalParameters.encode(parameters)`, already
    /// made for the cache key; it is the request's query or body when the service adds no
    /// common parameters.
    func request(
        for definition: any APIDefinition,
        service: APIService,
        parameters: [String: String],
        encodedParameters: String? = nil
    ) -> HTTPRequest {
        let encoded: String
        if service.commonParameters.isEmpty, let encodedParameters {
            encoded = encodedParameters
        } else {
            encoded = CanonicalParameters.encode(service.commonParameters.merging(parameters) { _, own in own })
        }
        let url: URL
        var body: Data?
        var headers: [String: String] = [:]
        var canonicalQuery = ""
        switch definition.httpMethod {
        case .get, .delete:
            url = service.url(for: definition.methodName, query: encoded)
            canonicalQuery = encoded
        case .post, .put:
            url = service.url(for: definition.methodName, query: "")
            body = Data(encoded.utf8)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        }
        var request = HTTPRequest(method: definition.httpMethod, url: url, headers: headers, body: body)
        if let signer = service.signer {
            // The query was built canonical: the signer need not decode and encode it again.
            signer.sign(
                &request, timestamp: Int(now().timeIntervalSince1970), nonce: makeNonce(),
                canonicalQuery: canonicalQuery)
        }
        return request
    }

    /// Turns a transport outcome into a result kind and, on success, the parsed data.
    func evaluate(
        _ outcome: Result<HTTPResponse, TransportFailure>,
        definition: any APIDefinition,
        service: APIService
    ) -> (APIResult, JSONValue?) {
        let response: HTTPResponse
        switch outcome {
        case .failure(.timeout): return (APIResult(kind: .timeout, message: "no response in time"), nil)
        case .failure(.noNetwork):
            // The network is up (reachability said so) but the server could not be reached.
            return (APIResult(kind: .noNetwork, message: "cannot reach \(service.baseURL.absoluteString)"), nil)
        case .failure(.cancelled): return (APIResult(kind: .cancelled), nil)
        case .failure(.failed(let reason)): return (APIResult(kind: .invalidResponse, message: reason), nil)
        case .success(let received): response = received
        }
        let json = response.body.isEmpty ? nil : try? JSONValue(parsing: response.body)
        let message = json?[service.messageKey]?.stringValue
        guard (200..<300).contains(response.status) else {
            if let key = service.errorCodeKey, let code = json?[key]?.intValue,
                service.signatureRejectedCodes.contains(code)
            {
                return (APIResult(kind: .signatureRejected, message: message ?? "signature rejected"), nil)
            }
            return (
                APIResult(
                    kind: .serverError(status: response.status),
                    message: message ?? "the server answered \(response.status)"), nil
            )
        }
        if response.status == 204 || response.body.isEmpty {
            return (APIResult(kind: .noContent, message: "the server sent no content"), nil)
        }
        guard let json else {
            return (APIResult(kind: .invalidResponse, message: "the response is not valid JSON"), nil)
        }
        return validated(json, definition: definition, fromCache: false)
    }

    /// Applies the API's response validation to `json`.
    func validated(_ json: JSONValue, definition: any APIDefinition, fromCache: Bool) -> (APIResult, JSONValue?) {
        if let problem = definition.validateResponse(json) {
            return (APIResult(kind: .invalidResponse, message: problem, isFromCache: fromCache), nil)
        }
        return (APIResult(kind: .success, isFromCache: fromCache), json)
    }
}
