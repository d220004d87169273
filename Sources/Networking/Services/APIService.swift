import Foundation

/// One API provider: where it lives and how it names things.
///
/// Several services with the same meaning but different conventions can coexist; each
/// API manager names the service it calls.
public struct APIService: Sendable {
    /// Which deployment of the service.
    public enum Environment: String, Sendable {
        /// The deployment users reach.
        case production
        /// The deployment for checking a release before it reaches users.
        case staging
        /// The deployment developers work against.
        case development
    }

    /// The name managers refer to it by.
    public let name: String
    /// The base URL, to which an API's method name is appended as a path.
    public let baseURL: URL
    /// The deployment.
    public let environment: Environment
    /// The parameter that carries the page number of paged APIs.
    public let pageKey: String
    /// The parameter that carries the page size of paged APIs.
    public let pageSizeKey: String
    /// The response field that carries the server's message, for errors.
    public let messageKey: String
    /// The response field of a server error code, if the service reports one.
    public let errorCodeKey: String?
    /// Error codes that mean "signature rejected".
    public let signatureRejectedCodes: Set<Int>
    /// Parameters every request of this service carries (an app key, a version).
    public let commonParameters: [String: String]
    /// The signing secret, from the app's configuration.
    ///
    /// With no secret, requests are sent unsigned.
    public let signingSecret: [UInt8]?
    /// `baseURL` as text without its trailing slash, when a request URL can be made by
    /// appending a path and a query to it as text; nil for a base URL that needs Foundation.
    private let baseText: String?
    /// The signer for `signingSecret`, its key prepared once.
    let signer: RequestSigner?

    /// Describes a service named `name` at `baseURL`.
    ///
    /// - Parameters:
    ///   - name: The name managers refer to it by.
    ///   - baseURL: The base URL, to which an API's method name is appended as a path.
    ///   - environment: The deployment; production unless given.
    ///   - pageKey: The parameter that carries the page number of paged APIs.
    ///   - pageSizeKey: The parameter that carries the page size of paged APIs.
    ///   - messageKey: The response field that carries the server's message.
    ///   - errorCodeKey: The response field of a server error code, or nil for none.
    ///   - signatureRejectedCodes: Error codes that mean "signature rejected".
    ///   - commonParameters: Parameters every request of this service carries; a call's
    ///     own parameter of the same name wins.
    ///   - signingSecret: The signing secret, from the app's configuration; nil sends
    ///     requests unsigned.
    public init(
        name: String,
        baseURL: URL,
        environment: Environment = .production,
        pageKey: String = "page",
        pageSizeKey: String = "page_size",
        messageKey: String = "message",
        errorCodeKey: String? = "code",
        signatureRejectedCodes: Set<Int> = [],
        commonParameters: [String: String] = [:],
        signingSecret: [UInt8]? = nil
    ) {
        self.name = name
        self.baseURL = baseURL
        self.environment = environment
        self.pageKey = pageKey
        self.pageSizeKey = pageSizeKey
        self.messageKey = messageKey
        self.errorCodeKey = errorCodeKey
        self.signatureRejectedCodes = signatureRejectedCodes
        self.commonParameters = commonParameters
        self.signingSecret = signingSecret
        self.signer = signingSecret.map { RequestSigner(secret: $0) }
        let text = baseURL.absoluteString
        if baseURL.scheme != nil, baseURL.host() != nil, baseURL.query() == nil, baseURL.fragment() == nil,
            baseURL.user() == nil, baseURL.password() == nil, !text.hasSuffix("//")
        {
            self.baseText = text.hasSuffix("/") ? String(text.dropLast()) : text
        } else {
            self.baseText = nil
        }
    }

    /// The URL for an API method of this service.
    public func url(for methodName: String) -> URL {
        url(for: methodName, query: "")
    }

    /// The URL for an API method of this service with `query` (already percent-encoded,
    /// without the `?`; empty for none).
    ///
    /// A method name of plain path segments is appended to the base URL as text and parsed
    /// once; anything else goes through Foundation's path appending and `URLComponents`,
    /// which give the same URL at several times the cost.
    func url(for methodName: String, query: String) -> URL {
        if let baseText, let path = Self.plainPath(methodName) {
            let text = query.isEmpty ? baseText + path : baseText + path + "?" + query
            if let url = URL(string: text) { return url }
        }
        let url = methodName.split(separator: "/").reduce(baseURL) { $0.appendingPathComponent(String($1)) }
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        components.percentEncodedQuery = query
        return components.url ?? url
    }

    /// `/a/b` for a method name `a/b` whose segments hold only `A-Z a-z 0-9 - . _ ~` (empty
    /// segments dropped, as the appending path does); nil when a segment needs escaping or
    /// is `.` or `..`.
    private static func plainPath(_ methodName: String) -> String? {
        var path = "/"
        var segmentLength = 0
        var segmentIsDots = true
        for byte in methodName.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                if segmentLength > 0 {
                    if segmentIsDots && segmentLength <= 2 { return nil }
                    path.append("/")
                }
                segmentLength = 0
                segmentIsDots = true
                continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                segmentIsDots = false
            case UInt8(ascii: "."):
                break
            default:
                return nil
            }
            path.unicodeScalars.append(Unicode.Scalar(byte))
            segmentLength += 1
        }
        if segmentLength > 0 && segmentIsDots && segmentLength <= 2 { return nil }
        if path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? nil : path
    }
}

/// The services an app talks to, by name.
///
/// A registry is safe to use from any thread.
// Safe to share: `services` is touched only under `lock`.
public final class ServiceRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var services: [String: APIService] = [:]

    /// Creates a registry holding `services`.
    public init(_ services: [APIService] = []) {
        for service in services { self.services[service.name] = service }
    }

    /// Adds or replaces `service`.
    public func register(_ service: APIService) {
        lock.lock()
        services[service.name] = service
        lock.unlock()
    }

    /// The service named `name`, if registered.
    public func service(named name: String) -> APIService? {
        lock.lock()
        defer { lock.unlock() }
        return services[name]
    }
}
