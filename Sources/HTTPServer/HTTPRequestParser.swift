import Networking

/// A request head and body as read off the wire, before it becomes an `HTTPRequest`.
struct ParsedRequest {
    var method: [UInt8] = []
    var target: [UInt8] = []
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion = 1
    /// Fields in arrival order, names as sent.
    var fields: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// The SHA-256 of `body`, computed as the body arrived (signature checks need it, and
    /// the bytes were in cache then); nil when there is no body.
    var bodyDigest: [UInt8]?
    /// Whether the connection stays open after the response.
    var keepAlive = true
    /// Whether the client waits for `100 Continue` before sending its body.
    var expectsContinue = false
}

/// Why a request is refused, as the status and a short reason for the response body.
struct RequestRefusal: Error, Equatable {
    let status: Int
    let reason: String
}

/// An HTTP/1.1 request parser fed bytes as they arrive (after llhttp's design): it holds
/// at most one request, refuses at the first byte that cannot be right, with the status
/// that says why, and never waits for more input to say no.
struct HTTPRequestParser {
    /// What a call to ``parse(_:)`` found.
    enum Outcome {
        /// More bytes are needed.
        case incomplete
        /// The head is complete and a body is expected, none of it read yet: ``head`` holds
        /// the head, and the client may wait for `100 Continue` (``expectsContinue``).
        case headComplete
        /// A whole request.
        case request(ParsedRequest)
        /// The request is refused; the connection answers and closes.
        case refused(RequestRefusal)
    }

    private enum State {
        case method, target, version, versionLF
        case fieldStart, fieldName, fieldValue, fieldLF, headLF
        case body(remaining: Int)
        case chunkSize, chunkExtension, chunkSizeLF
        case chunkData(remaining: Int)
        case chunkDataCR, chunkDataLF
        case trailerStart, trailerLine, trailerLF, trailerEndLF
    }

    let maximumHeadSize: Int
    let maximumBodySize: Int
    let maximumFieldCount = 100

    private var state = State.method
    private var request = ParsedRequest()
    /// The hash of the body read so far (kept here, not in the request, which is copied).
    private var bodyHash = SHA256()
    private var headSize = 0
    private var token: [UInt8] = []
    private var fieldName = ""
    private var chunkSize = 0
    private var chunkDigits = 0
    /// Body bytes taken into requests (buffered and hashed) since the parser was made.
    private(set) var bodyBytesRead = 0
    /// The `Content-Length` of the current request once its head is complete; nil for a
    /// chunked body (whose length is known only at its end) and before the head is whole.
    private(set) var announcedBodyLength: Int?

    init(maximumHeadSize: Int, maximumBodySize: Int) {
        self.maximumHeadSize = maximumHeadSize
        self.maximumBodySize = maximumBodySize
    }

    /// Whether bytes of a request have arrived that do not yet make a whole request.
    var isMidRequest: Bool {
        if case .method = state { return headSize > 0 }
        return true
    }

    /// The current request as far as it has arrived: after ``Outcome/headComplete``, its
    /// whole head and none of its body.
    var head: ParsedRequest { request }

    /// Whether the client of the current request waits for `100 Continue` before its body.
    var expectsContinue: Bool { request.expectsContinue }

    /// Whether the head of the current request is complete (its body may be arriving).
    var isReadingBody: Bool {
        switch state {
        case .body, .chunkSize, .chunkExtension, .chunkSizeLF, .chunkData, .chunkDataCR, .chunkDataLF,
            .trailerStart, .trailerLine, .trailerLF, .trailerEndLF:
            return true
        default:
            return false
        }
    }

    /// Reads from `bytes` until a request is complete, refused, its head complete with a
    /// body to come, or the bytes run out; returns how many bytes it used.
    mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (consumed: Int, outcome: Outcome) {
        var index = 0
        while index < bytes.count {
            // Bodies are copied in runs, not byte by byte.
            if case .body(let remaining) = state {
                let run = min(remaining, bytes.count - index)
                let piece = UnsafeBufferPointer(rebasing: bytes[index..<index + run])
                request.body.append(contentsOf: piece)
                bodyHash.update(piece)
                bodyBytesRead += run
                index += run
                if remaining - run == 0 { return (index, .request(finish())) }
                state = .body(remaining: remaining - run)
                continue
            }
            if case .chunkData(let remaining) = state {
                let run = min(remaining, bytes.count - index)
                let piece = UnsafeBufferPointer(rebasing: bytes[index..<index + run])
                request.body.append(contentsOf: piece)
                bodyHash.update(piece)
                bodyBytesRead += run
                index += run
                state = remaining - run == 0 ? .chunkDataCR : .chunkData(remaining: remaining - run)
                continue
            }
            let byte = bytes[index]
            index += 1
            switch step(byte) {
            case .none: continue
            case .some(.incomplete): continue
            case .some(let outcome): return (index, outcome)
            }
        }
        return (index, .incomplete)
    }

    private mutating func refuse(_ status: Int, _ reason: String) -> Outcome {
        .refused(RequestRefusal(status: status, reason: reason))
    }

    /// One byte of head, chunk framing or trailer.
    private mutating func step(_ byte: UInt8) -> Outcome? {
        if !isReadingBody {
            headSize += 1
            if headSize > maximumHeadSize { return refuse(431, "request head larger than \(maximumHeadSize) bytes") }
        }
        switch state {
        case .method:
            if byte == 0x20 {
                guard !request.method.isEmpty else { return refuse(400, "request line starts with a space") }
                state = .target
            } else {
                guard Self.isTokenByte(byte), request.method.count < 16 else { return refuse(400, "malformed method") }
                request.method.append(byte)
            }
        case .target:
            if byte == 0x20 {
                guard request.target.first == UInt8(ascii: "/") else { return refuse(400, "the target must be a path") }
                state = .version
            } else {
                guard byte > 0x20 && byte < 0x7F else { return refuse(400, "malformed request target") }
                request.target.append(byte)
            }
        case .version:
            if byte == 0x0D {
                let version = token
                token.removeAll(keepingCapacity: true)
                guard version.count == 8, version.starts(with: Array("HTTP/".utf8)),
                    Self.isDigit(version[5]), version[6] == UInt8(ascii: "."), Self.isDigit(version[7])
                else {
                    return refuse(400, "malformed HTTP version")
                }
                guard version[5] == UInt8(ascii: "1"), version[7] <= UInt8(ascii: "1") else {
                    return refuse(505, "HTTP version not supported: use HTTP/1.1 or HTTP/1.0")
                }
                request.minorVersion = Int(version[7] - UInt8(ascii: "0"))
                request.keepAlive = request.minorVersion == 1
                state = .versionLF
            } else if byte == 0x0A {
                return refuse(400, "a line must end in CR LF")
            } else {
                guard token.count < 8, byte > 0x20 && byte < 0x7F else { return refuse(400, "malformed HTTP version") }
                token.append(byte)
            }
        case .versionLF, .fieldLF:
            guard byte == 0x0A else { return refuse(400, "a line must end in CR LF") }
            state = .fieldStart
        case .fieldStart:
            if byte == 0x0D {
                state = .headLF
            } else if byte == 0x20 || byte == 0x09 {
                return refuse(400, "folded header lines are not accepted")
            } else {
                guard Self.isTokenByte(byte) else { return refuse(400, "malformed header name") }
                guard request.fields.count < maximumFieldCount else {
                    return refuse(431, "more than \(maximumFieldCount) header fields")
                }
                token.append(byte)
                state = .fieldName
            }
        case .fieldName:
            if byte == UInt8(ascii: ":") {
                fieldName = String(decoding: token, as: UTF8.self)
                token.removeAll(keepingCapacity: true)
                state = .fieldValue
            } else {
                guard Self.isTokenByte(byte) else { return refuse(400, "malformed header name") }
                token.append(byte)
            }
        case .fieldValue:
            if byte == 0x0D {
                // Leading and trailing spaces and tabs are not part of the value.
                let value = token.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
                    .reversed()
                request.fields.append((fieldName, String(decoding: value, as: UTF8.self)))
                token.removeAll(keepingCapacity: true)
                state = .fieldLF
            } else if byte == 0x0A {
                return refuse(400, "a line must end in CR LF")
            } else {
                guard byte >= 0x20 || byte == 0x09, byte != 0x7F else {
                    return refuse(400, "control character in a header")
                }
                token.append(byte)
            }
        case .headLF:
            guard byte == 0x0A else { return refuse(400, "a line must end in CR LF") }
            return headComplete()
        case .chunkSize:
            if let digit = Self.hexValue(byte) {
                chunkDigits += 1
                guard chunkDigits <= 8 else { return refuse(413, "body larger than \(maximumBodySize) bytes") }
                chunkSize = chunkSize << 4 | Int(digit)
            } else if chunkDigits > 0 && (byte == UInt8(ascii: ";") || byte == 0x20 || byte == 0x09) {
                state = .chunkExtension
            } else if chunkDigits > 0 && byte == 0x0D {
                state = .chunkSizeLF
            } else {
                return refuse(400, "malformed chunk size")
            }
        case .chunkExtension:
            // Extensions are read and ignored, within the head's size limit.
            headSize += 1
            if headSize > maximumHeadSize { return refuse(431, "chunk extensions too large") }
            if byte == 0x0D {
                state = .chunkSizeLF
            } else if byte < 0x20 && byte != 0x09 {
                return refuse(400, "malformed chunk extension")
            }
        case .chunkSizeLF:
            guard byte == 0x0A else { return refuse(400, "a line must end in CR LF") }
            guard request.body.count + chunkSize <= maximumBodySize else {
                return refuse(413, "body larger than \(maximumBodySize) bytes")
            }
            if chunkSize == 0 {
                state = .trailerStart
            } else {
                state = .chunkData(remaining: chunkSize)
            }
            chunkSize = 0
            chunkDigits = 0
        case .chunkDataCR:
            guard byte == 0x0D else { return refuse(400, "chunk data longer than its size") }
            state = .chunkDataLF
        case .chunkDataLF:
            guard byte == 0x0A else { return refuse(400, "a line must end in CR LF") }
            state = .chunkSize
        case .trailerStart:
            if byte == 0x0D {
                state = .trailerEndLF
            } else {
                headSize += 1
                guard Self.isTokenByte(byte) else { return refuse(400, "malformed trailer") }
                state = .trailerLine
            }
        case .trailerLine:
            // Trailer fields are read and ignored, within the head's size limit.
            headSize += 1
            if headSize > maximumHeadSize { return refuse(431, "trailer too large") }
            if byte == 0x0D {
                state = .trailerLF
            } else if byte < 0x20 && byte != 0x09 {
                return refuse(400, "control character in a trailer")
            }
        case .trailerLF:
            guard byte == 0x0A else { return refuse(400, "a line must end in CR LF") }
            state = .trailerStart
        case .trailerEndLF:
            guard byte == 0x0A else { return refuse(400, "a line must end in CR LF") }
            return .request(finish())
        case .body, .chunkData:
            break
        }
        return nil
    }

    /// The head is complete: decides framing and connection handling from its fields.
    private mutating func headComplete() -> Outcome {
        var contentLength: Int?
        var transferEncodings: [String] = []
        var hosts = 0
        for (name, value) in request.fields {
            switch name.lowercased() {
            case "content-length":
                guard !value.isEmpty, value.utf8.count <= 15, value.utf8.allSatisfy(Self.isDigit),
                    let length = Int(value)
                else {
                    return refuse(400, "malformed Content-Length")
                }
                guard contentLength == nil || contentLength == length else {
                    return refuse(400, "conflicting Content-Length")
                }
                contentLength = length
            case "transfer-encoding":
                transferEncodings += value.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
            case "connection":
                let options = value.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
                if options.contains("close") { request.keepAlive = false }
                if options.contains("keep-alive") && request.minorVersion == 0 { request.keepAlive = true }
            case "host":
                hosts += 1
            case "expect":
                guard value.lowercased() == "100-continue" else {
                    return refuse(417, "only 100-continue can be expected")
                }
                request.expectsContinue = request.minorVersion == 1
            default:
                break
            }
        }
        guard request.minorVersion == 0 || hosts == 1 else {
            return refuse(400, "an HTTP/1.1 request needs one Host field")
        }
        if !transferEncodings.isEmpty {
            guard contentLength == nil else { return refuse(400, "both Content-Length and Transfer-Encoding") }
            guard transferEncodings == ["chunked"] else {
                return refuse(501, "only the chunked transfer coding is supported")
            }
            guard request.minorVersion == 1 else { return refuse(400, "Transfer-Encoding in an HTTP/1.0 request") }
            state = .chunkSize
            return announce()
        }
        let length = contentLength ?? 0
        guard length <= maximumBodySize else { return refuse(413, "body larger than \(maximumBodySize) bytes") }
        if length == 0 { return .request(finish()) }
        announcedBodyLength = length
        // Room for what has arrived, not for what the head announces: a head alone does
        // not make the server set aside a megabyte.
        request.body.reserveCapacity(min(length, 64 << 10))
        state = .body(remaining: length)
        return announce()
    }

    private mutating func announce() -> Outcome {
        .headComplete
    }

    /// The request just completed; the parser is ready for the next one.
    private mutating func finish() -> ParsedRequest {
        var done = request
        if !done.body.isEmpty { done.bodyDigest = bodyHash.finalize() }
        bodyHash = SHA256()
        announcedBodyLength = nil
        request = ParsedRequest()
        state = .method
        headSize = 0
        token.removeAll(keepingCapacity: true)
        return done
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        tokenBytes[Int(byte)]
    }

    private static let tokenBytes: [Bool] = (0..<256).map { code in
        switch UInt8(code) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(UInt8(code))
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
