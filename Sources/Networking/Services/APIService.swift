import Foundation

/// One API provider: where it lives and how it names things.
///
/// Several services with the same meaning but different conventions can coexist; each
/// API manager names the service it calls.
public struct APIService: Sendable {
    /// Which deployment of the service.
    public enum Environment: String, Sendable {
        case production, staging, development
    }

    /// The name managers refer to it by.
    public let name: String
    /// The base URL; an API's method name is appended as a path.
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
    /// The signing secret, from the app's configuration; nil sends requests unsigned.
    public let signingSecret: [UInt8]?

    /// Describes a service.
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
    }

    /// The URL for an API method of this service.
    public func url(for methodName: String) -> URL {
        methodName.split(separator: "/").reduce(baseURL) { $0.appendingPathComponent(String($1)) }
    }
}

/// The services an app talks to, by name. Thread-safe.
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
        lock.lock(); services[service.name] = service; lock.unlock()
    }

    /// The service named `name`, if registered.
    public func service(named name: String) -> APIService? {
        lock.lock(); defer { lock.unlock() }
        return services[name]
    }
}
