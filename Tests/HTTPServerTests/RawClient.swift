import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A client that speaks HTTP by hand, to send what no well-behaved client would.
final class RawClient {
    let handle: Int32

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout`.
    init(port: UInt16, timeout: Double = 3) {
        handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(handle, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(handle)
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(handle, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Everything until the server closes (or the timeout), and whether it closed.
    func readToEnd() -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(handle, &buffer, buffer.count)
            if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
            if count < 0 { return (String(decoding: received, as: UTF8.self), false) }
            received += buffer[0..<count]
        }
    }

    /// Reads exactly `count` responses (each framed by its Content-Length); fewer if the
    /// server closes or goes quiet first.
    func responses(_ count: Int) -> [Response] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var parsed: [Response] = []
        while parsed.count < count {
            while let (response, used) = Response.parse(received) {
                parsed.append(response)
                received.removeFirst(used)
                if parsed.count == count { return parsed }
            }
            let read = Glibc.read(handle, &buffer, buffer.count)
            guard read > 0 else { return parsed }
            received += buffer[0..<read]
        }
        return parsed
    }

    /// One response: status, fields (names lowercased), body.
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: String

        static func parse(_ bytes: [UInt8]) -> (Response, Int)? {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { return nil }
            var lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            let headLength = text[..<end.upperBound].utf8.count
            let length = Int(headers["content-length"] ?? "0") ?? 0
            guard bytes.count >= headLength + length else { return nil }
            let body = String(decoding: bytes[headLength..<headLength + length], as: UTF8.self)
            return (Response(status: status, headers: headers, body: body), headLength + length)
        }
    }
}
