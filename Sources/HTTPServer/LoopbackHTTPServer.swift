import Dispatch
import Foundation
import Networking
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 that hands each request to a Swift handler.
///
/// Serves the app's embedded API over real HTTP (`homes serve`) and the end-to-end tests
/// of `URLSessionTransport`. One request per connection; bodies over `maximumBodySize`
/// get 413; malformed requests get 400. Never listens beyond the loopback address.
///
/// ```swift
/// let server = LoopbackHTTPServer { request in .json(["ok": true]) }
/// let port = try server.start()
/// defer { server.stop() }
/// ```
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What failed, with the system's reason.
        public let description: String
    }

    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let requestedPort: UInt16
    /// The largest request body accepted.
    public let maximumBodySize: Int
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var boundPort: UInt16 = 0
    private let connections = DispatchQueue(label: "http-server.connections", attributes: .concurrent)

    /// A server on `port` (0 picks a free one) answering with `handler`.
    public init(port: UInt16 = 0, maximumBodySize: Int = 1 << 20,
                handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.requestedPort = port
        self.maximumBodySize = maximumBodySize
        self.handler = handler
    }

    deinit {
        stop()
    }

    /// The port being listened on, once started.
    public var port: UInt16 {
        lock.lock(); defer { lock.unlock() }
        return boundPort
    }

    /// The base URL of the server, once started.
    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Binds 127.0.0.1 and starts accepting connections; returns the port.
    @discardableResult
    public func start() throws -> UInt16 {
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
        lock.lock()
        listener = socketHandle
        boundPort = port
        lock.unlock()
        let thread = Thread { [weak self] in self?.acceptLoop(socketHandle) }
        thread.name = "http-server.accept"
        thread.start()
        return port
    }

    /// Stops accepting connections. Requests being answered finish on their own.
    public func stop() {
        lock.lock()
        let handle = listener
        listener = -1
        lock.unlock()
        guard handle >= 0 else { return }
        shutdown(handle, Int32(SHUT_RDWR))
        close(handle)
    }

    private func acceptLoop(_ handle: Int32) {
        while true {
            let connection = accept(handle, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            connections.async { [self] in
                serve(connection)
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var headerEnd: Int?
        while headerEnd == nil {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            received += buffer[0..<count]
            headerEnd = Self.find([13, 10, 13, 10], in: received)
            if headerEnd == nil && received.count > 64 * 1024 {
                return write(HTTPResponse(status: 431, body: Data("headers too large".utf8)), to: connection)
            }
        }
        let head = String(decoding: received[0..<headerEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2, let method = HTTPMethod(rawValue: String(requestLine[0])),
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
            let count = read(connection, &buffer, min(buffer.count, length - body.count))
            guard count > 0 else { return }
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

    private static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start..<start + pattern.count].elementsEqual(pattern) {
            return start
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
        default: return "Status"
        }
    }
}
