import Foundation
import HTTPServer
import Networking
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server over real sockets: persistent connections, pipelining, refusals, and
/// clients that hold connections open without sending anything.
@Suite(.serialized) struct LoopbackHTTPServerTests {
    /// Echoes method, path and body.
    static let echo: @Sendable (HTTPRequest) -> HTTPResponse = { request in
        HTTPResponse(
            status: 200,
            body: Data(
                "\(request.method.rawValue) \(request.url.path) \(String(decoding: request.body ?? Data(), as: UTF8.self))"
                    .utf8))
    }

    @Test func oneConnectionServesManyRequestsAndPipelinedOnesInOrder() throws {
        let server = LoopbackHTTPServer(handler: Self.echo)
        let port = try server.start()
        defer { server.stop() }
        let client = RawClient(port: port)
        client.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.responses(1).map(\.body) == ["GET /one "])
        client.send(
            "GET /two HTTP/1.1\r\nHost: x\r\n\r\nPOST /three HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "POST /four HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n")
        let answers = client.responses(3)
        #expect(answers.map(\.body) == ["GET /two ", "POST /three abc", "POST /four hi"])
        #expect(answers.allSatisfy { $0.headers["connection"] == nil })
        #expect(server.openConnections == 1)
    }

    @Test func connectionCloseAndHTTP10AreHonoured() throws {
        let server = LoopbackHTTPServer(handler: Self.echo)
        let port = try server.start()
        defer { server.stop() }
        let closing = RawClient(port: port)
        closing.send("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nGET /ignored HTTP/1.1\r\nHost: x\r\n\r\n")
        let (text, closed) = closing.readToEnd()
        #expect(closed)
        #expect(text.contains("Connection: close"))
        #expect(text.components(separatedBy: "HTTP/1.1 200").count == 2, "one answer, then the connection closes")
        let old = RawClient(port: port)
        old.send("GET /b HTTP/1.0\r\n\r\n")
        let (oldText, oldClosed) = old.readToEnd()
        #expect(oldClosed)
        #expect(oldText.hasSuffix("GET /b "))
        let kept = RawClient(port: port)
        kept.send("GET /c HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /d HTTP/1.0\r\n\r\n")
        let keptAnswers = kept.responses(2)
        #expect(keptAnswers.map(\.body) == ["GET /c ", "GET /d "])
        #expect(keptAnswers.first?.headers["connection"] == "keep-alive")
    }

    @Test func malformedRequestsAreAnsweredAtOnceAndTheConnectionClosed() throws {
        let server = LoopbackHTTPServer(maximumBodySize: 10, handler: Self.echo)
        let port = try server.start()
        defer { server.stop() }
        let cases: [(String, Int)] = [
            ("GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello", 400),
            ("GET / HTTP/1.1\nHost: x\n\n", 400),
            ("garbage\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n", 413),
            ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
            ("PATCH / HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("GET /" + String(repeating: "a", count: 70_000) + " HTTP/1.1\r\n", 431),
        ]
        let clock = ContinuousClock()
        for (request, status) in cases {
            let started = clock.now
            let client = RawClient(port: port, timeout: 4)
            client.send(request)
            let answer = client.responses(1).first
            #expect(answer?.status == status, "\(request.prefix(40).debugDescription)")
            // Not at the 5 s head deadline: as soon as the bad byte arrived.
            #expect(clock.now - started < .seconds(3), "\(request.prefix(40).debugDescription)")
        }
    }

    @Test func aTricklingClientHears408AtTheDeadlineAndAnIdleOneIsClosed() throws {
        let server = LoopbackHTTPServer(headDeadline: .milliseconds(300), handler: Self.echo)
        let port = try server.start()
        defer { server.stop() }
        let trickling = RawClient(port: port)
        trickling.send("GET / HTTP/1.1\r\n")
        let (text, closed) = trickling.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 408"))
        #expect(closed)
        let idle = RawClient(port: port)
        let (idleText, idleClosed) = idle.readToEnd()
        #expect(idleText.isEmpty)
        #expect(idleClosed)
    }

    @Test func hundredsOfIdleConnectionsDoNotKeepAClientWaiting() throws {
        // Both ends of 500 connections live in this process.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = max(limit.rlim_cur, min(limit.rlim_max, 4_096))
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let server = LoopbackHTTPServer(maximumConnections: 1_024, handler: Self.echo)
        let port = try server.start()
        defer { server.stop() }
        let idle = (0..<300).map { _ in RawClient(port: port) }
        let trickling = (0..<200).map { _ in RawClient(port: port) }
        trickling.forEach { $0.send("GET / HT") }
        let clock = ContinuousClock()
        let started = clock.now
        let client = RawClient(port: port)
        client.send("GET /normal HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.responses(1).first?.body == "GET /normal ")
        #expect(clock.now - started < .seconds(1))
        #expect(idle.count + trickling.count == 500)
    }

    @Test func atTheCapTheLongestIdleConnectionMakesRoom() throws {
        let server = LoopbackHTTPServer(maximumConnections: 32, eventLoops: 1, handler: Self.echo)
        let port = try server.start()
        defer { server.stop() }
        let hoarders = (0..<200).map { _ in RawClient(port: port, timeout: 1) }
        let clock = ContinuousClock()
        let started = clock.now
        let client = RawClient(port: port)
        client.send("GET /normal HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.responses(1).first?.body == "GET /normal ")
        #expect(clock.now - started < .seconds(1))
        #expect(server.openConnections <= 32)
        // The first hoarders were closed to make room.
        #expect(hoarders[0].readToEnd().closed)
    }

    /// A server that checks signatures as `homes serve` does: heads screened before their
    /// bodies, whole requests verified, a refusal's body naming its verdict.
    static func signedServer(_ verifier: SignatureVerifier) -> LoopbackHTTPServer {
        let refusal: @Sendable (SignatureVerifier.Verdict) -> HTTPResponse = { verdict in
            HTTPResponse(status: 401, body: Data("\(verdict)".utf8))
        }
        return LoopbackHTTPServer(
            screen: { head in verifier.screen(headers: head.headers, now: Date()).map(refusal) },
            handler: { request in
                let verdict = verifier.verify(request, now: Date())
                return verdict == .valid ? echo(request) : refusal(verdict)
            })
    }

    /// A login form's head with `headers` announcing `length` bytes of body, then `body`.
    static func form(_ headers: [String: String], length: Int, body: [UInt8]) -> [UInt8] {
        var head = "POST /api/account/login HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// The signature fields of `body` posted to the login form, signed now.
    static func signedHeaders(_ signer: RequestSigner, body: [UInt8], nonce: String) -> [String: String] {
        var request = HTTPRequest(
            method: .post, url: URL(string: "http://127.0.0.1/api/account/login")!, body: Data(body))
        signer.sign(&request, timestamp: Int(Date().timeIntervalSince1970), nonce: nonce)
        return request.headers
    }

    @Test func thirtyTwoForgedFormsAtOnceAreRefusedFromTheirHeadsWhileAGenuineClientIsServed() throws {
        let secret = Array("flood-secret".utf8)
        let signer = RequestSigner(secret: secret)
        let server = Self.signedServer(SignatureVerifier(secret: secret))
        let port = try server.start()
        defer { server.stop() }
        // A genuine login, whose headers a forger captures.
        let login = Array("username=mei&password=homes2026".utf8)
        let captured = Self.signedHeaders(signer, body: login, nonce: "genuine")
        let first = RawClient(port: port)
        first.send(Self.form(captured, length: login.count, body: login))
        #expect(first.responses(1).first?.status == 200)
        // 32 forged 1 MB forms, all in flight at once: captured headers with a new body, or
        // with the timestamp, the nonce or the signature scrambled. Each sends its head and
        // the start of its body, then waits: the answer must come from the head alone.
        let forgeries: [(String, (inout [String: String]) -> Void)] = [
            ("replayed", { _ in }),
            (
                "stale",
                { $0[SignatureHeader.timestamp] = String($0[SignatureHeader.timestamp, default: ""].reversed()) }
            ),
            ("missing", { $0[SignatureHeader.nonce] = "forged nonce!" }),
            ("mismatch", { $0[SignatureHeader.signature] = "00ff" }),
        ]
        let start = (0..<16_384).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let forgers = (0..<32).map { index in
            let client = RawClient(port: port)
            var headers = captured
            forgeries[index % forgeries.count].1(&headers)
            client.send(Self.form(headers, length: 1_000_000, body: start))
            return client
        }
        // Meanwhile a genuine client is served, body and all, on a persistent connection.
        let genuine = RawClient(port: port)
        let hello = Array("hello".utf8)
        let farewell = Array("farewell".utf8)
        genuine.send(Self.form(Self.signedHeaders(signer, body: hello, nonce: "g1"), length: 5, body: hello))
        #expect(genuine.responses(1).map(\.body) == ["POST /api/account/login hello"])
        genuine.send(Self.form(Self.signedHeaders(signer, body: farewell, nonce: "g2"), length: 8, body: farewell))
        #expect(genuine.responses(1).map(\.body) == ["POST /api/account/login farewell"])
        for (index, forger) in forgers.enumerated() {
            let answer = forger.responses(1).first
            #expect(answer?.status == 401, "forger \(index)")
            #expect(answer?.body == forgeries[index % forgeries.count].0, "forger \(index)")
            #expect(answer?.headers["connection"] == "close", "forger \(index)")
        }
        // Not a byte of a forged body was buffered or hashed: only the genuine bodies were.
        #expect(server.refusedBeforeBody == 32)
        #expect(server.bodyBytesRead == login.count + hello.count + farewell.count)
        // A forgery with well-formed fresh headers is told only by its body's hash: the
        // server reads that body, then refuses it.
        var wellFormed = Self.signedHeaders(signer, body: login, nonce: "forged-but-fresh")
        wellFormed[SignatureHeader.signature] = String(repeating: "0", count: 64)
        let body = Array(start.prefix(1_000))
        let last = RawClient(port: port)
        last.send(Self.form(wellFormed, length: body.count, body: body))
        #expect(last.responses(1).first?.body == "mismatch")
        #expect(server.refusedBeforeBody == 32)
        #expect(server.bodyBytesRead == login.count + hello.count + farewell.count + body.count)
    }

    @Test func aHeadThatCannotBeAnsweredIsRefusedBeforeItsBodyAndAScreenedOneHearsNo100Continue() throws {
        let server = LoopbackHTTPServer(
            screen: { head in head.url.path == "/refused" ? HTTPResponse(status: 403, body: Data("no".utf8)) : nil },
            handler: Self.echo)
        let port = try server.start()
        defer { server.stop() }
        let unknown = RawClient(port: port)
        unknown.send("PATCH /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nabc")
        #expect(unknown.responses(1).first?.status == 501)
        let waiting = RawClient(port: port)
        waiting.send("POST /refused HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1000000\r\n\r\n")
        let (text, closed) = waiting.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 403"))
        #expect(!text.contains("100 Continue"))
        #expect(closed)
        // One the screen lets through hears 100 Continue, then its answer.
        let allowed = RawClient(port: port)
        allowed.send("POST /fine HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        allowed.send("ok")
        let answers = allowed.responses(2)
        #expect(answers.map(\.status) == [100, 200])
        #expect(answers.last?.body == "POST /fine ok")
        #expect(server.refusedBeforeBody == 2)
        #expect(server.bodyBytesRead == 2)
    }

    @Test func bodiesInFlightAreBoundedAndAnAnsweredOneGivesItsRoomBack() throws {
        let server = LoopbackHTTPServer(maximumBodySize: 1_000, maximumBodyBytesInFlight: 2_500, handler: Self.echo)
        let port = try server.start()
        defer { server.stop() }
        /// A client whose head the server has taken, waiting to send its body.
        func waiting(_ length: Int) -> (RawClient, RawClient.Response?) {
            let client = RawClient(port: port)
            client.send("POST /w HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: \(length)\r\n\r\n")
            return (client, client.responses(1).first)
        }
        let (first, firstAnswer) = waiting(1_000)
        let (second, secondAnswer) = waiting(1_000)
        #expect([firstAnswer?.status, secondAnswer?.status] == [100, 100])
        // 3,000 bytes would be in flight: refused before its body, to try again shortly.
        let (_, refused) = waiting(1_000)
        #expect(refused?.status == 503)
        #expect(refused?.headers["retry-after"] == "1")
        let (_, fits) = waiting(500)
        #expect(fits?.status == 100)
        // Answered, the first body gives its room back.
        let body = String(repeating: "a", count: 1_000)
        first.send(body)
        #expect(first.responses(1).first?.body == "POST /w " + body)
        let (_, after) = waiting(1_000)
        #expect(after?.status == 100)
        #expect(server.refusedBeforeBody == 1)
        #expect(server.bodyBytesRead == 1_000)
        withExtendedLifetime(second) {} // open, holding its room, until here
    }

    @Test func stoppingClosesConnectionsAndTheListener() throws {
        let server = LoopbackHTTPServer(handler: Self.echo)
        let port = try server.start()
        let client = RawClient(port: port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.responses(1).count == 1)
        server.stop()
        #expect(client.readToEnd().closed)
        #expect(server.openConnections == 0)
        let late = RawClient(port: port, timeout: 1)
        late.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(late.responses(1).isEmpty)
    }

    @Test func aDroppedServerIsFreedAndStartsOnlyOnce() throws {
        weak var weakServer: LoopbackHTTPServer?
        do {
            let server = LoopbackHTTPServer { _ in .json([:]) }
            try server.start()
            #expect(throws: LoopbackHTTPServer.StartError.self) { try server.start() }
            weakServer = server
        }
        #expect(weakServer == nil)
    }
}
