import CEventPoll
import Foundation
import Networking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One client connection: its parser, its pending input and output, and its deadlines.
/// Owned by one event loop.
final class HTTPConnection {
    let descriptor: Int32
    private let limits: ServerLimits
    private var parser: HTTPRequestParser
    /// Input read while the output was backed up, answered once it drains.
    private var pendingInput: [UInt8] = []
    private var output: [UInt8] = []
    private var outputOffset = 0
    /// When the connection began waiting for its current request: opened, or last answered.
    private var waitingSince: ContinuousClock.Instant
    private var headCompletedAt: ContinuousClock.Instant?
    private var lingerUntil: ContinuousClock.Instant?
    private(set) var lastActivity: ContinuousClock.Instant
    /// The room the body being received holds among the server's bodies in flight.
    private var bodyRoom = 0
    /// No more requests will be answered: the last response says `Connection: close`.
    private(set) var isFinished = false
    /// The client has closed its side: what is queued is sent, then the connection closes.
    var peerClosed = false
    var registeredEvents = EPOLLIN.rawValue | EPOLLRDHUP.rawValue

    /// Output beyond this stops the answering of pipelined requests until it drains.
    private static let outputHighWater = 256 << 10

    init(descriptor: Int32, limits: ServerLimits, now: ContinuousClock.Instant) {
        self.descriptor = descriptor
        self.limits = limits
        self.parser = HTTPRequestParser(
            maximumHeadSize: limits.maximumHeadSize, maximumBodySize: limits.maximumBodySize)
        self.waitingSince = now
        self.lastActivity = now
    }

    var isFlushed: Bool { outputOffset == output.count }

    /// Whether reading would do anything: not while output is backed up, and after the
    /// last response only to drain what the client still sends before it closes.
    var isReading: Bool {
        if peerClosed { return false }
        if lingerUntil != nil { return true }
        return !isFinished && pendingInput.isEmpty && output.count - outputOffset < Self.outputHighWater
    }

    /// Bytes from the client.
    func receive(_ bytes: UnsafeBufferPointer<UInt8>, now: ContinuousClock.Instant, core: ServerCore) {
        lastActivity = now
        guard lingerUntil == nil, !isFinished else { return } // after the last response: discarded
        let bodyBytesBefore = parser.bodyBytesRead
        defer {
            let taken = parser.bodyBytesRead - bodyBytesBefore
            if taken > 0 { core.bodyBytesRead.add(taken, ordering: .relaxed) }
        }
        var offset = 0
        while offset < bytes.count {
            if output.count - outputOffset >= Self.outputHighWater {
                pendingInput.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset...]))
                return
            }
            let (used, outcome) = parser.parse(UnsafeBufferPointer(rebasing: bytes[offset...]))
            offset += used
            switch outcome {
            case .incomplete:
                break
            case .headComplete:
                // Before a byte of the body is read: a request that cannot be answered, or
                // that the screen refuses, is answered now and its body never read.
                if let refusal = screen(parser.head, core: core) {
                    core.refusedBeforeBody.add(1, ordering: .relaxed)
                    finish(with: refusal)
                    return
                }
                // Room for the whole body, claimed before any of it is read: past the
                // server's bound on bodies in flight the request is refused for now.
                let room = parser.announcedBodyLength ?? limits.maximumBodySize
                guard core.claimBodyRoom(room) else {
                    core.refusedBeforeBody.add(1, ordering: .relaxed)
                    finish(
                        with: HTTPResponse(
                            status: 503, headers: ["Retry-After": "1"],
                            body: Data("too many request bodies in flight; try again shortly".utf8)))
                    return
                }
                bodyRoom = room
                if parser.expectsContinue { output += Array("HTTP/1.1 100 Continue\r\n\r\n".utf8) }
            case .request(let request):
                answer(request, now: now, core: core)
            case .refused(let refusal):
                finish(
                    with: HTTPResponse(
                        status: refusal.status, headers: ["Content-Type": "text/plain; charset=utf-8"],
                        body: Data(refusal.reason.utf8)))
                return
            }
            if isFinished { return }
        }
        if parser.isReadingBody && headCompletedAt == nil { headCompletedAt = now }
    }

    /// Answers what arrived while the output was backed up.
    func resume(now: ContinuousClock.Instant, core: ServerCore) {
        guard !pendingInput.isEmpty else { return }
        let waiting = pendingInput
        pendingInput = []
        waiting.withUnsafeBufferPointer { receive($0, now: now, core: core) }
    }

    private func answer(_ parsed: ParsedRequest, now: ContinuousClock.Instant, core: ServerCore) {
        waitingSince = now
        headCompletedAt = nil
        let response: HTTPResponse
        if let request = Self.request(from: parsed, port: core.port) {
            response = core.handler(request)
        } else {
            response = Self.unanswerable(parsed)
        }
        releaseBodyRoom(core: core)
        output += Self.serialize(response, keepAlive: parsed.keepAlive, minorVersion: parsed.minorVersion)
        if !parsed.keepAlive { isFinished = true }
    }

    /// The refusal of a request, from its head alone, before its body is read: when its
    /// method or target make it unanswerable, or the server's screen refuses it.
    private func screen(_ head: ParsedRequest, core: ServerCore) -> HTTPResponse? {
        guard let request = Self.request(from: head, port: core.port) else { return Self.unanswerable(head) }
        return core.screen?(request)
    }

    /// Why a request whose method or target cannot make an `HTTPRequest` is not answered.
    private static func unanswerable(_ parsed: ParsedRequest) -> HTTPResponse {
        if HTTPMethod(rawValue: String(decoding: parsed.method, as: UTF8.self)) == nil {
            return HTTPResponse(
                status: 501, headers: ["Allow": "GET, POST, PUT, DELETE"],
                body: Data("method not implemented".utf8))
        }
        return HTTPResponse(status: 400, body: Data("malformed request target".utf8))
    }

    /// Gives back the room the body being received held; the connection is done with it.
    func releaseBodyRoom(core: ServerCore) {
        guard bodyRoom > 0 else { return }
        core.releaseBodyRoom(bodyRoom)
        bodyRoom = 0
    }

    /// Queues a last response; the connection closes once it is sent.
    private func finish(with response: HTTPResponse) {
        output += Self.serialize(response, keepAlive: false, minorVersion: 1)
        isFinished = true
    }

    /// Writes what it can; false when the connection is broken.
    func flush(now: ContinuousClock.Instant) -> Bool {
        while outputOffset < output.count {
            let written = output.withUnsafeBytes { bytes in
                send(descriptor, bytes.baseAddress! + outputOffset, bytes.count - outputOffset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 { return errno == EAGAIN || errno == EINTR }
            outputOffset += written
            lastActivity = now
        }
        output.removeAll(keepingCapacity: output.capacity <= 64 << 10)
        outputOffset = 0
        if isFinished && lingerUntil == nil {
            // The last response is out: stop sending, and read what the client still sends
            // until it closes, so closing does not reset the connection and lose the answer.
            shutdown(descriptor, Int32(SHUT_WR))
            lingerUntil = now + .seconds(1)
        }
        return true
    }

    func hasMissedDeadline(now: ContinuousClock.Instant) -> Bool {
        if let lingerUntil { return now >= lingerUntil }
        if isFinished { return false }
        if let headCompletedAt { return now - headCompletedAt > limits.bodyDeadline }
        return pendingInput.isEmpty && isFlushed && now - waitingSince > limits.headDeadline
    }

    /// Past a deadline: a request half sent hears 408; an idle connection just closes.
    func timeOut(now: ContinuousClock.Instant) {
        if lingerUntil != nil || !parser.isMidRequest {
            output.removeAll()
            outputOffset = 0
            lingerUntil = now
            isFinished = true
            return
        }
        finish(with: HTTPResponse(status: 408, body: Data("request not received in time".utf8)))
        _ = flush(now: now)
    }

    // MARK: - Conversions

    static func request(from parsed: ParsedRequest, port: UInt16) -> HTTPRequest? {
        guard let method = HTTPMethod(rawValue: String(decoding: parsed.method, as: UTF8.self)),
            let url = URL(string: "http://127.0.0.1:\(port)" + String(decoding: parsed.target, as: UTF8.self))
        else {
            return nil
        }
        // A field given twice reads as one, its values joined with commas (RFC 9110 5.3).
        var headers: [String: String] = [:]
        var spelling: [String: String] = [:]
        for (name, value) in parsed.fields {
            let key = name.lowercased()
            if let existing = spelling[key] {
                headers[existing, default: ""] += ", " + value
            } else {
                spelling[key] = name
                headers[name] = value
            }
        }
        guard let digest = parsed.bodyDigest else { return HTTPRequest(method: method, url: url, headers: headers) }
        return HTTPRequest(method: method, url: url, headers: headers, body: Data(parsed.body), bodyDigest: digest)
    }

    static func serialize(_ response: HTTPResponse, keepAlive: Bool, minorVersion: Int) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        let framing: Set<String> = ["content-length", "connection", "transfer-encoding"]
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key })
        where !framing.contains(name.lowercased()) && !name.contains(where: { $0 == "\r" || $0 == "\n" })
            && !value.contains(where: { $0 == "\r" || $0 == "\n" })
        {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\n"
        if !keepAlive {
            head += "Connection: close\r\n"
        } else if minorVersion == 0 {
            head += "Connection: keep-alive\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        bytes.append(contentsOf: response.body)
        return bytes
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 417: return "Expectation Failed"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }
}
