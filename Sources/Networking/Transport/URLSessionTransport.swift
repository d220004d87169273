import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Real HTTP through `URLSession`.
public final class URLSessionTransport: HTTPTransport, Sendable {
    private let session: URLSession
    /// The largest response body accepted, in bytes.
    ///
    /// A larger body is refused with a failure. It is checked once the body has arrived,
    /// because URLSession buffers it first.
    public let maximumBodySize: Int

    /// Sends through `session`, refusing response bodies over `maximumBodySize` bytes.
    ///
    /// - Parameters:
    ///   - session: The session requests go through; an ephemeral one unless given.
    ///   - maximumBodySize: The largest response body accepted, in bytes; 16 MiB unless
    ///     given.
    public init(session: URLSession = URLSession(configuration: .ephemeral), maximumBodySize: Int = 16 << 20) {
        self.session = session
        self.maximumBodySize = maximumBodySize
    }

    public func send(
        _ request: HTTPRequest,
        timeout: Duration,
        completion: @escaping @Sendable (Result<HTTPResponse, TransportFailure>) -> Void
    ) -> any TransportTask {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = max(
            0.001,
            Double(timeout.components.seconds)
                + Double(timeout.components.attoseconds) / 1e18)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let limit = maximumBodySize
        let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error {
                completion(.failure(URLSessionTransport.failure(for: error)))
                return
            }
            guard let http = response as? HTTPURLResponse else {
                completion(.failure(.failed("not an HTTP response")))
                return
            }
            let body = data ?? Data()
            guard body.count <= limit else {
                completion(.failure(.failed("response body of \(body.count) bytes exceeds \(limit)")))
                return
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                headers["\(name)"] = "\(value)"
            }
            completion(.success(HTTPResponse(status: http.statusCode, headers: headers, body: body)))
        }
        task.resume()
        return URLSessionTask(task: task)
    }

    static func failure(for error: any Error) -> TransportFailure {
        let code = (error as NSError).code
        switch code {
        case NSURLErrorTimedOut: return .timeout
        case NSURLErrorCancelled: return .cancelled
        case NSURLErrorNotConnectedToInternet, NSURLErrorNetworkConnectionLost, NSURLErrorCannotConnectToHost,
            NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return .noNetwork
        default: return .failed((error as NSError).localizedDescription)
        }
    }
}

private struct URLSessionTask: TransportTask, @unchecked Sendable {
    // Safe to share: URLSessionDataTask is documented thread-safe; only `cancel()` is called.
    let task: URLSessionDataTask

    func cancel() {
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation traps when a task is cancelled while it completes
            // ("Trying to access a behaviour for a task that in not in the registry", its
            // issue 3296), so on Linux a cancelled request is abandoned instead: it ends by
            // itself (at the latest at its timeout) and the manager drops its response.
        #else
            task.cancel()
        #endif
    }
}
