import Foundation
import Networking

#if canImport(Glibc)
    import Glibc
#endif

/// The least HTTP/1.1 server the URLSession transport's tests need, on 127.0.0.1: one
/// request per connection, a thread per connection, each answered by `handler` and closed.
///
/// It trusts its peer (the test's own URLSession), so it is no model for a server; the
/// demo's `HTTPServer` is the hardened one, and its tests attack it. Keeping this one here
/// means the framework's tests need no demo module.
///
/// `@unchecked Sendable`: the listening socket and the running flag are read and written
/// under `lock` only; `handler` is immutable.
final class TestHTTPServer: @unchecked Sendable {
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var port = 0

    /// A server that answers every request with `handler`'s response.
    init(handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.handler = handler
    }

    deinit { stop() }

    /// Where the server listens, once started.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(lock.withLock { port })")! }

    /// Listens on a free port and accepts connections on a thread of its own.
    ///
    /// - Returns: The port.
    @discardableResult
    func start() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 16) == 0 else {
            close(socket)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socket, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        lock.withLock { (listener, self.port) = (socket, port) }
        Thread.detachNewThread { [self] in
            while case let connection = accept(socket, nil, nil), connection >= 0 {
                Thread.detachNewThread { [self] in serve(connection) }
            }
        }
        return port
    }

    /// Stops listening; connections under way finish.
    func stop() {
        let socket = lock.withLock { () -> Int32 in
            defer { listener = -1 }
            return listener
        }
        guard socket >= 0 else { return }
        shutdown(socket, Int32(SHUT_RDWR)) // wakes the thread blocked in accept
        close(socket)
    }

    /// Reads one request from `connection`, answers it and closes the connection.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        var contentLength = 0
        var head: [String] = []
        while headerEnd.map({ bytes.count < $0 + contentLength }) ?? true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            bytes += buffer[..<count]
            guard headerEnd == nil, let end = bytes.firstRange(of: separator)?.lowerBound else { continue }
            headerEnd = end + separator.count
            head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
            for line in head.dropFirst() where line.lowercased().hasPrefix("content-length:") {
                contentLength = max(
                    0, Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0)
            }
            if head.contains(where: { $0.lowercased() == "expect: 100-continue" }) {
                write(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
            }
        }
        guard let headerEnd else { return }
        let requestLine = head.first?.split(separator: " ") ?? []
        guard requestLine.count == 3, let url = URL(string: baseURL.absoluteString + requestLine[1]) else { return }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Data(bytes[headerEnd..<(headerEnd + contentLength)])
        let request = HTTPRequest(
            method: HTTPMethod(rawValue: String(requestLine[0])) ?? .get, url: url, headers: headers,
            body: body.isEmpty ? nil : body)
        let response = handler(request)
        var text = "HTTP/1.1 \(response.status) Status\r\nConnection: close\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        if response.status != 204 { text += "Content-Length: \(response.body.count)\r\n" }
        write(connection, Array((text + "\r\n").utf8) + response.body)
    }

    /// Writes all of `bytes`, or as much as the peer takes before it goes.
    private func write(_ connection: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            sent += count
        }
    }
}
