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
