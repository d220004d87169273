import Dispatch
import Foundation
import Networking
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 that hands each request to a Swift handler.
///
/// Serves the app's embedded API over real HTTP (`homes serve`) and the end-to-end tests
/// of `URLSessionTransport`. One request per connection, each on its own thread, at most
/// `maximumConnections` at once; a request must arrive whole within `requestDeadline`;
/// bodies over `maximumBodySize` get 413; malformed requests get 400. Never listens
/// beyond the loopback address.
///
/// ```swift
/// let server = LoopbackHTTPServer { request in .json(["ok": true]) }
/// let port = try server.start()
/// defer { server.stop() }
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public let description: String
    }

    private let core: ServerCore
    private let requestedPort: UInt16

    /// A server on `port` (0 picks a free one) answering with `handler`.
    ///
    /// - Parameters:
    ///   - maximumBodySize: larger request bodies get 413.
    ///   - maximumConnections: connections beyond this many at once get 503.
    ///   - requestDeadline: a request must arrive whole within this time, or the
    ///     connection is closed (so idle or trickling clients cannot hold the server).
    public init(port: UInt16 = 0, maximumBodySize: Int = 1 << 20, maximumConnections: Int = 64,
                requestDeadline: Duration = .seconds(10),
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.requestedPort = port
        self.core = ServerCore(handler: handler, maximumBodySize: maximumBodySize,
                               maximumConnections: maximumConnections, requestDeadline: requestDeadline)
    }

    deinit {
        stop()
    }

    /// The largest request body accepted.
    public var maximumBodySize: Int { core.maximumBodySize }

    /// The port being listened on, once started.
    public var port: UInt16 { core.port }

    /// The base URL of the server, once started.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Binds 127.0.0.1 and starts accepting connections; returns the port. A server
    /// starts once.
    @discardableResult
    public func start() throws -> UInt16 {
        guard core.claimStart() else { throw StartError(description: "the server was already started") }
        let socketHandle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketHandle >= 0 else { throw StartError(description: "socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socketHandle, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requestedPort.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketHandle, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketHandle, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketHandle)
            throw StartError(description: "cannot listen on 127.0.0.1:\(requestedPort): \(reason)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketHandle, $0, &length) }
        }
        let port = UInt16(bigEndian: actual.sin_port)
        core.listening(on: socketHandle, port: port)
        let core = self.core
        let thread = Thread { core.acceptLoop(socketHandle) }
        thread.name = "http-server.accept"
        thread.start()
        return port
    }

    /// Stops accepting connections; the accept thread closes the socket as it leaves.
    /// Requests being answered finish on their own.
    public func stop() {
        core.stop()
    }
}

/// The state the accept and connection threads share; it holds no reference to the
/// server object, so dropping the server stops it.
// Safe to share: `let`s of Sendable types; the mutable state is touched only under `lock`.
private final class ServerCore: @unchecked Sendable {
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    let maximumBodySize: Int
    let maximumConnections: Int
    let requestDeadline: Duration
    private let lock = NSLock()
    private var started = false
    private var stopped = false
    private var listener: Int32 = -1
    private var boundPort: UInt16 = 0
    private var openConnections = 0
    /// Signalled when a connection closes (a descriptor is free again) or the server stops.
    private let descriptorFreed = NSCondition()

    init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse, maximumBodySize: Int,
         maximumConnections: Int, requestDeadline: Duration) {
        self.handler = handler
        self.maximumBodySize = maximumBodySize
        self.maximumConnections = max(1, maximumConnections)
        self.requestDeadline = requestDeadline
    }

    var port: UInt16 {
        lock.lock(); defer { lock.unlock() }
        return boundPort
    }

    func claimStart() -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !started else { return false }
        started = true
        return true
    }

    func listening(on handle: Int32, port: UInt16) {
        lock.lock()
        listener = handle
        boundPort = port
        lock.unlock()
    }

    func stop() {
        lock.lock()
        let handle = listener
        let wasRunning = !stopped && handle >= 0
        stopped = true
        lock.unlock()
        // Wakes the accept thread, which closes the socket itself, so its number cannot be
        // reused while it is still accepting on it.
        if wasRunning { shutdown(handle, Int32(SHUT_RDWR)) }
        signalDescriptorFreed()
    }

    private func signalDescriptorFreed() {
        descriptorFreed.lock()
        descriptorFreed.broadcast()
        descriptorFreed.unlock()
    }

    /// Out of descriptors: waits until a connection closes (or, when the whole system is
    /// out of them, at most 50 ms) before accepting again.
    private func waitForFreeDescriptor() {
        descriptorFreed.lock()
        _ = descriptorFreed.wait(until: Date().addingTimeInterval(0.05))
        descriptorFreed.unlock()
    }

    private var isStopped: Bool {
        lock.lock(); defer { lock.unlock() }
        return stopped
    }

    func acceptLoop(_ handle: Int32) {
        defer { close(handle) }
        while true {
            let connection = accept(handle, nil, nil)
            if isStopped {
                if connection >= 0 { close(connection) }
                return
            }
            guard connection >= 0 else {
                // Out of descriptors or a connection aborted before it was accepted: wait
                // for a descriptor to be freed and keep serving.
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM { waitForFreeDescriptor() }
                continue
            }
            lock.lock()
            let admitted = openConnections < maximumConnections
            if admitted { openConnections += 1 }
            lock.unlock()
            guard admitted else {
                write(HTTPResponse(status: 503, body: Data("too many connections".utf8)), to: connection)
                close(connection)
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                close(connection)
                lock.lock(); openConnections -= 1; lock.unlock()
                signalDescriptorFreed()
            }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sendTimeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = ContinuousClock.now + requestDeadline
        func readSome(into buffer: inout [UInt8], limit: Int) -> Int? {
            while ContinuousClock.now < deadline {
                let count = read(connection, &buffer, min(buffer.count, limit))
                if count > 0 { return count }
                if count == 0 { return nil }
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return nil
            }
            return nil
        }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var headerEnd: Int?
        while headerEnd == nil {
            let searchFrom = max(0, received.count - 3)
            guard let count = readSome(into: &buffer, limit: buffer.count) else { return }
            received += buffer[0..<count]
            headerEnd = Self.find([13, 10, 13, 10], in: received, from: searchFrom)
            if headerEnd == nil && received.count > 64 * 1024 {
                return write(HTTPResponse(status: 431, body: Data("headers too large".utf8)), to: connection)
            }
        }
        let head = String(decoding: received[0..<headerEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2, let method = HTTPMethod(rawValue: String(requestLine[0])),
              requestLine[1].hasPrefix("/"),
              let url = URL(string: "http://127.0.0.1:\(port)\(requestLine[1])") else {
            return write(HTTPResponse(status: 400, body: Data("bad request line".utf8)), to: connection)
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon]).trimmingCharacters(in: .whitespaces)] =
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        let lengthText = headers.first { $0.key.lowercased() == "content-length" }?.value ?? "0"
        guard let length = Int(lengthText), length >= 0 else {
            return write(HTTPResponse(status: 400, body: Data("bad content length".utf8)), to: connection)
        }
        guard length <= maximumBodySize else {
            return write(HTTPResponse(status: 413, body: Data("body too large".utf8)), to: connection)
        }
        var body = Array(received[(headerEnd! + 4)...])
        while body.count < length {
            guard let count = readSome(into: &buffer, limit: length - body.count) else { return }
            body += buffer[0..<count]
        }
        let request = HTTPRequest(method: method, url: url, headers: headers,
                                  body: length > 0 ? Data(body.prefix(length)) : nil)
        write(handler(request), to: connection)
    }

    private func write(_ response: HTTPResponse, to connection: Int32) {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        var headers = response.headers
        headers["Content-Length"] = String(response.body.count)
        headers["Connection"] = "close"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        bytes += response.body
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        for index in start...(bytes.count - pattern.count) where bytes[index..<index + pattern.count].elementsEqual(pattern) {
            return index
        }
        return nil
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 413: return "Payload Too Large"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }
}
