import Foundation

/// An HTTP verb.
public enum HTTPMethod: String, Sendable {
    /// Reads; parameters travel in the query.
    case get = "GET"
    /// Creates or acts; parameters travel in the body.
    case post = "POST"
    /// Replaces; parameters travel in the body.
    case put = "PUT"
    /// Deletes; parameters travel in the query.
    case delete = "DELETE"
}

/// A request as a transport sends it.
public struct HTTPRequest: Sendable {
    /// The verb.
    public var method: HTTPMethod
    /// The full URL, query included.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data? {
        didSet { bodyDigest = nil }
    }
    /// The SHA-256 of `body`, when the server that read the body hashed it on the way in.
    ///
    /// It is forgotten as soon as `body` changes.
    package private(set) var bodyDigest: [UInt8]?

    /// Creates a request.
    public init(method: HTTPMethod, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A request read off the wire, with the SHA-256 of `body` computed while reading it.
    package init(method: HTTPMethod, url: URL, headers: [String: String], body: Data, bodyDigest: [UInt8]) {
        self.init(method: method, url: url, headers: headers, body: body)
        self.bodyDigest = bodyDigest
    }

    /// The query parameters of `url` (the last value wins for a repeated name).
    public var queryParameters: [String: String] {
        CanonicalParameters.decode(url.query(percentEncoded: true) ?? "")
    }

    /// The parameters of a form-encoded body.
    public var formParameters: [String: String] {
        guard let body, let text = String(data: body, encoding: .utf8) else { return [:] }
        return CanonicalParameters.decode(text)
    }

    /// Query and form parameters together, the form's value winning on a clash.
    ///
    /// It is lenient, for requests this process built; for a request from a peer use
    /// ``checkedParameters(maximumCount:)``.
    public var parameters: [String: String] {
        queryParameters.merging(formParameters) { _, form in form }
    }

    /// The parameters of a request from an untrusted peer, query and form body together.
    ///
    /// - Parameter maximumCount: The most fields the query and the body may each hold,
    ///   counted before anything is decoded.
    /// - Returns: The parameters, each name once across the query and the body.
    /// - Throws: ``CanonicalParameters/Problem/tooManyFields(limit:)`` beyond
    ///   `maximumCount`, ``CanonicalParameters/Problem/repeatedName(_:)`` for a name given
    ///   twice, and ``CanonicalParameters/Problem/badEscape`` for an invalid escape.
    public func checkedParameters(maximumCount: Int) throws(CanonicalParameters.Problem) -> [String: String] {
        let query = url.query(percentEncoded: true) ?? ""
        var result = try CanonicalParameters.decode(Array(query.utf8), maximumCount: maximumCount)
        for (name, value) in try CanonicalParameters.decode(body ?? Data(), maximumCount: maximumCount) {
            guard result.updateValue(value, forKey: name) == nil else { throw .repeatedName(name) }
        }
        return result
    }
}

/// A response as a transport received it.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response carrying `json`, with status 200 unless given.
    public static func json(_ json: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: json.encoded())
    }
}

/// Why a transport could not produce a response.
public enum TransportFailure: Error, Sendable, Equatable {
    /// No response within the time allowed.
    case timeout
    /// The network is unreachable.
    case noNetwork
    /// The request was cancelled.
    case cancelled
    /// Any other failure, described.
    case failed(String)
}

/// Something that sends HTTP requests: real HTTP, or a handler in the same process.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and calls `completion` exactly once, on any thread, unless cancelled.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: How long the call may take. The engine enforces it itself as well; a
    ///     transport may use it to stop early.
    ///   - completion: Called with the response, or with why there is none.
    /// - Returns: The request in flight, to cancel it.
    func send(
        _ request: HTTPRequest,
        timeout: Duration,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
    ) -> any TransportTask
}

/// A request in flight.
public protocol TransportTask: Sendable {
    /// Stops the request.
    ///
    /// Its completion may then never be called.
    func cancel()
}
