import Foundation
import HomesAPI
import Networking
import Testing

/// The embedded API against a hostile client: replays, tampering, floods of fields,
/// credentials in URLs.
@Suite struct APIServerSecurityTests {
    let secret = Array("server-secret".utf8)
    let now = Date(timeIntervalSince1970: 1_763_700_000)

    func server() -> HomesAPIServer {
        let now = self.now
        return HomesAPIServer(count: 5, secret: secret, updatedBefore: now, clock: { now })
    }

    func signed(_ method: HTTPMethod, _ url: String, body: String? = nil, nonce: String = UUID().uuidString)
        -> HTTPRequest
    {
        var request = HTTPRequest(method: method, url: URL(string: url)!, body: body.map { Data($0.utf8) })
        RequestSigner(secret: secret).sign(&request, timestamp: Int(now.timeIntervalSince1970), nonce: nonce)
        return request
    }

    func code(_ response: HTTPResponse) -> Int? {
        (try? JSONValue(parsing: response.body))?["code"]?.intValue
    }

    @Test func aReplayedRequestIsRefusedWithItsOwnCode() {
        let server = server()
        let request = signed(.get, "http://127.0.0.1/api/rentals/list?page=1")
        #expect(server.handle(request).status == 200)
        for _ in 0..<21 {
            let replay = server.handle(request)
            #expect(replay.status == 401)
            #expect(code(replay) == 4012)
        }
    }

    @Test func aSignatureServesOnlyTheMethodAndPathItWasMadeFor() {
        let server = server()
        let original = signed(.get, "http://127.0.0.1/api/rentals/list?page=1")
        for change in [
            { (request: inout HTTPRequest) in request.method = .post },
            { $0.method = .delete },
            { $0.url = URL(string: "http://127.0.0.1/x/api/rentals/list?page=1")! },
            { $0.url = URL(string: "http://127.0.0.1/api/resale/list?page=1")! },
        ] {
            var request = original
            change(&request)
            #expect(server.handle(request).status != 200)
        }
        // Nothing outside /api/<service>/<method> is an API, signed or not.
        #expect(server.handle(signed(.get, "http://127.0.0.1/x/y/rentals/list")).status == 404)
    }

    @Test func aFloodOfFieldsIsRefusedUnreadAndAForgedOneBeforeThat() {
        let server = server()
        let flood = (0..<120_000).map { "f\($0)=1" }.joined(separator: "&")
        var forged = HTTPRequest(
            method: .post, url: URL(string: "http://127.0.0.1/api/inquiry/send")!,
            headers: [
                SignatureHeader.timestamp: "1763700000", SignatureHeader.nonce: "n",
                SignatureHeader.signature: String(repeating: "0", count: 64),
            ],
            body: Data(flood.utf8))
        #expect(code(server.handle(forged)) == 4010)
        let genuine = signed(.post, "http://127.0.0.1/api/inquiry/send", body: flood)
        let refused = server.handle(genuine)
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("more than 100 parameters"))
        forged.headers[SignatureHeader.signature] = nil
        #expect(server.handle(forged).status == 401)
    }

    @Test func aHeadWhoseSignatureCannotHoldIsRefusedBeforeItsBodyAndAGenuineOneSpendsNothing() {
        let server = server()
        let genuine = signed(.post, "http://127.0.0.1/api/account/login", body: "username=mei&password=homes2026")
        var head = genuine
        head.body = nil
        // A head that may be genuine passes, however often it is screened, and spends nothing.
        #expect(server.screen(head) == nil)
        #expect(server.screen(head) == nil)
        #expect(server.handle(genuine).status == 200)
        func refusal(_ change: (inout HTTPRequest) -> Void) -> (status: Int?, code: Int?) {
            var forged = head
            change(&forged)
            let response = server.screen(forged)
            return (response?.status, response.flatMap(code))
        }
        // Its captured headers are refused from now on, with any body.
        #expect(refusal { _ in } == (401, 4012))
        #expect(refusal { $0.headers[SignatureHeader.timestamp] = "0000367" } == (401, 4011))
        #expect(refusal { $0.headers[SignatureHeader.nonce] = "forged nonce" } == (401, 4010))
        #expect(refusal { $0.headers[SignatureHeader.signature] = "zz" } == (401, 4010))
        #expect(refusal { $0.headers["x-signature-nonce"] = "again" } == (401, 4013))
        #expect(refusal { $0.url = URL(string: "http://127.0.0.1/login")! } == (404, nil))
        // Fresh, well formed and wrong: only the body's hash can tell, so it passes here
        // and `handle` refuses it.
        var wellFormed = head
        wellFormed.headers[SignatureHeader.nonce] = "new-nonce"
        wellFormed.headers[SignatureHeader.signature] = String(repeating: "0", count: 64)
        #expect(server.screen(wellFormed) == nil)
        wellFormed.body = Data("username=mei&password=homes2026".utf8)
        #expect(code(server.handle(wellFormed)) == 4010)
        // Refusals here are answers too.
        #expect(server.requestsServed == 8)
        // Without a secret there is no signature to screen; the path still is.
        #expect(HomesAPIServer().screen(head) == nil)
        #expect(HomesAPIServer().screen(HTTPRequest(method: .post, url: URL(string: "http://x/api")!))?.status == 404)
    }

    @Test func credentialsAreRefusedInAQueryString() {
        let server = server()
        let inURL = server.handle(signed(.get, "http://127.0.0.1/api/account/login?username=mei&password=homes2026"))
        #expect(inURL.status == 405)
        #expect(code(inURL) == 4050)
        let inBody = server.handle(
            signed(.post, "http://127.0.0.1/api/account/login", body: "username=mei&password=homes2026"))
        #expect(inBody.status == 200)
    }

    @Test func repeatedOrBrokenParametersAreABadRequest() {
        let server = server()
        for (url, body) in [
            ("http://127.0.0.1/api/rentals/list?page=1&page=2", nil),
            ("http://127.0.0.1/api/inquiry/send?id=1", "id=2&text=hi"),
            ("http://127.0.0.1/api/inquiry/send", "id=1&text=%E6%9"),
        ] {
            let response = server.handle(signed(body == nil ? .get : .post, url, body: body))
            #expect(response.status == 400)
            #expect(code(response) == 4000)
        }
    }

    /// Regression (review): the log upload took any `count`, however absurd; one that is
    /// huge, negative, zero or not a number is a bad request and counts no event.
    @Test(.tags(.regression)) func theServerRefusesAbsurdLogBatches() {
        let server = HomesAPIServer()
        for count in ["9223372036854775807", "-5", "0", "lots"] {
            let request = HTTPRequest(
                method: .post, url: URL(string: "http://x/api/logs/upload")!,
                body: Data("count=\(count)".utf8))
            #expect(server.handle(request).status == 400)
        }
        #expect(server.eventsUploaded == 0)
    }
}
