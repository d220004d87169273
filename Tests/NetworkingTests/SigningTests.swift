import Dispatch
import Foundation
import Networking
import Testing

@Suite struct SigningTests {
    let secret = Array("test-secret".utf8)
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func signed(
        _ method: HTTPMethod, _ url: String, body: String? = nil, nonce: String = "n1",
        timestamp: Int = 1_700_000_000
    ) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: URL(string: url)!, body: body.map { Data($0.utf8) })
        RequestSigner(secret: secret).sign(&request, timestamp: timestamp, nonce: nonce)
        return request
    }

    @Test func canonicalParametersAreSortedByTheirEncodedBytesAndEscaped() {
        let text = CanonicalParameters.encode(["b": "2", "a": "x y&z=1", "中": "文"])
        #expect(text == "%E4%B8%AD=%E6%96%87&a=x%20y%26z%3D1&b=2")
        #expect(CanonicalParameters.decode(text) == ["b": "2", "a": "x y&z=1", "中": "文"])
        #expect(CanonicalParameters.decode("a=1&a=2&empty=&flag") == ["a": "2", "empty": "", "flag": ""])
        #expect(CanonicalParameters.canonicalQuery("z=1&a=b+c&a=%41&%7e=~") == "a=A&a=b%20c&z=1&~=~")
        #expect(CanonicalParameters.canonicalQuery("a=%4") == nil)
    }

    @Test func checkedDecodingCountsFieldsBeforeDecodingAndRefusesRepeatsAndBadEscapes() {
        let many = Array((0...100).map { "f\($0)=1" }.joined(separator: "&").utf8)
        #expect(throws: CanonicalParameters.Problem.tooManyFields(limit: 100)) {
            try CanonicalParameters.decode(many, maximumCount: 100)
        }
        #expect(throws: CanonicalParameters.Problem.repeatedName("a")) {
            try CanonicalParameters.decode(Array("a=1&a=2".utf8), maximumCount: 10)
        }
        #expect(throws: CanonicalParameters.Problem.badEscape) {
            try CanonicalParameters.decode(Array("a=%FF".utf8), maximumCount: 10)
        }
        #expect(throws: CanonicalParameters.Problem.badEscape) {
            try CanonicalParameters.decode(Array("a=%zz".utf8), maximumCount: 10)
        }
        #expect(
            (try? CanonicalParameters.decode(Array("a=x+y&b=%E6%96%87".utf8), maximumCount: 2)) == [
                "a": "x y", "b": "文",
            ])
        let request = HTTPRequest(method: .post, url: URL(string: "http://x/a?a=1")!, body: Data("a=2".utf8))
        #expect(throws: CanonicalParameters.Problem.repeatedName("a")) {
            try request.checkedParameters(maximumCount: 5)
        }
    }

    /// The worked example of Docs/Signing.md, computed independently (Python's hmac and
    /// hashlib): the document and the code cannot drift apart.
    @Test func theDocumentedExampleSignsToTheDocumentedValues() {
        var request = HTTPRequest(
            method: .get,
            url: URL(string: "http://127.0.0.1:8080/api/rentals/list?page_size=2&district=Jing%27an&page=1")!)
        RequestSigner(secret: Array("homes-demo-secret".utf8)).sign(
            &request, timestamp: 1_763_700_000,
            nonce: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        #expect(
            RequestSigner.signingText(
                for: request, timestamp: 1_763_700_000, nonce: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
                == "HOMES1-HMAC-SHA256\nGET\n/api/rentals/list\ndistrict=Jing%27an&page=1&page_size=2\n"
                + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n1763700000\n"
                + "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        #expect(
            request.headers[SignatureHeader.signature]
                == "230f6de8e6337683e2cf2fce9645d267426eedd44ca598267085a3e77f5bb0ab")
        var login = HTTPRequest(
            method: .post, url: URL(string: "http://127.0.0.1:8080/api/account/login")!,
            body: Data("password=homes2026&username=mei".utf8))
        RequestSigner(secret: Array("homes-demo-secret".utf8)).sign(
            &login, timestamp: 1_763_700_000,
            nonce: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        #expect(
            login.headers[SignatureHeader.signature]
                == "60bb07098db673f4de3d83f1cd25e3db944479d4b293d63e96d4b4303a2a6ba2")
    }

    @Test func aFreshRequestIsValidOnceAndItsReplayIsRefused() {
        let verifier = SignatureVerifier(secret: secret)
        let request = signed(.get, "http://x/api/rentals/list?page=1")
        #expect(verifier.verify(request, now: now) == .valid)
        #expect(verifier.verify(request, now: now) == .replayed)
        #expect(verifier.verify(request, now: now.addingTimeInterval(299)) == .replayed)
        // Past the window the timestamp itself refuses it.
        #expect(verifier.verify(request, now: now.addingTimeInterval(301)) == .stale)
        // Another nonce is another request.
        #expect(verifier.verify(signed(.get, "http://x/api/rentals/list?page=1", nonce: "n2"), now: now) == .valid)
    }

    @Test func theSignatureBindsMethodPathQueryAndBody() {
        let verifier = SignatureVerifier(secret: secret)
        let original = signed(.get, "http://x/api/rentals/list?page=1&size=2")
        func tampered(_ change: (inout HTTPRequest) -> Void) -> SignatureVerifier.Verdict {
            var request = original
            change(&request)
            return verifier.verify(request, now: now)
        }
        #expect(tampered { $0.method = .post } == .mismatch)
        #expect(tampered { $0.method = .delete } == .mismatch)
        #expect(tampered { $0.url = URL(string: "http://x/x/y/rentals/list?page=1&size=2")! } == .mismatch)
        #expect(tampered { $0.url = URL(string: "http://x/api/rentals/list?page=2&size=2")! } == .mismatch)
        #expect(tampered { $0.url = URL(string: "http://x/api/rentals/list?page=1&size=2&extra=1")! } == .mismatch)
        // The parameters moved from the query into a form body.
        #expect(
            tampered {
                $0.method = .post
                $0.url = URL(string: "http://x/api/rentals/list")!
                $0.body = Data("page=1&size=2".utf8)
            } == .mismatch)
        // The query in another order, or escaped differently, is the same query.
        #expect(tampered { $0.url = URL(string: "http://x/api/rentals/list?size=%32&page=1")! } == .valid)
        // Another host is fine: the host is not the API's business, the path is.
        #expect(
            verifier.verify(signed(.get, "http://y/api/rentals/list?page=1&size=2", nonce: "n9"), now: now) == .valid)

        let post = signed(.post, "http://x/api/account/login", body: "username=mei&password=homes2026", nonce: "p1")
        var changedBody = post
        changedBody.body = Data("username=mei&password=homes2027".utf8)
        #expect(verifier.verify(changedBody, now: now) == .mismatch)
        var droppedBody = post
        droppedBody.body = nil
        #expect(verifier.verify(droppedBody, now: now) == .mismatch)
        #expect(verifier.verify(post, now: now) == .valid)
    }

    @Test func aBodyHashedWhileReadingIsCheckedAsSentAndForgottenOnceTheBodyChanges() {
        let verifier = SignatureVerifier(secret: secret, maximumAge: 300)
        let body = Data("username=mei&password=homes2026".utf8)
        func read(_ nonce: String, digest: [UInt8]) -> HTTPRequest {
            let sent = signed(
                .post, "http://x/api/account/login", body: String(decoding: body, as: UTF8.self), nonce: nonce)
            return HTTPRequest(method: .post, url: sent.url, headers: sent.headers, body: body, bodyDigest: digest)
        }
        #expect(verifier.verify(read("r1", digest: SHA256.hash(body)), now: now) == .valid)
        // The digest taken on the way in is what the check uses: the body is not hashed again.
        #expect(verifier.verify(read("r2", digest: SHA256.hash(Data("other".utf8))), now: now) == .mismatch)
        var rewritten = read("r3", digest: SHA256.hash(Data("other".utf8)))
        #expect(rewritten.bodyDigest != nil)
        rewritten.body = body
        #expect(rewritten.bodyDigest == nil)
        #expect(verifier.verify(rewritten, now: now) == .valid)
    }

    @Test func staleMissingMalformedAndForeignSignaturesAreRefused() {
        let verifier = SignatureVerifier(secret: secret, maximumAge: 300)
        let request = signed(.get, "http://x/api/a?a=1")
        #expect(verifier.verify(request, now: now.addingTimeInterval(301)) == .stale)
        #expect(verifier.verify(request, now: now.addingTimeInterval(-301)) == .stale)
        #expect(verifier.verify(HTTPRequest(method: .get, url: request.url), now: now) == .missing)
        var garbled = request
        garbled.headers[SignatureHeader.signature] = "not-hex"
        #expect(verifier.verify(garbled, now: now) == .missing)
        for nonce in ["", String(repeating: "a", count: 129), "a b", "ü"] {
            var badNonce = request
            badNonce.headers[SignatureHeader.nonce] = nonce
            #expect(verifier.verify(badNonce, now: now) == .missing)
        }
        #expect(SignatureVerifier(secret: Array("other".utf8)).verify(request, now: now) == .mismatch)
        // A forgery spends no nonce: the genuine request still goes through.
        #expect(verifier.verify(request, now: now) == .valid)
    }

    @Test func theScreenRefusesFromTheHeadersWhatNoBodyCouldMakeGenuineAndSpendsNothing() {
        let verifier = SignatureVerifier(secret: secret, maximumAge: 300)
        let request = signed(.post, "http://x/api/a", body: "a=1")
        func screened(_ change: (inout [String: String]) -> Void) -> SignatureVerifier.Verdict? {
            var headers = request.headers
            change(&headers)
            return verifier.screen(headers: headers, now: now)
        }
        #expect(screened { _ in } == nil)
        #expect(screened { $0[SignatureHeader.timestamp] = "1699999699" } == .stale)
        #expect(screened { $0[SignatureHeader.timestamp] = "0017" } == .stale)
        #expect(screened { $0[SignatureHeader.nonce] = "a b" } == .missing)
        #expect(screened { $0[SignatureHeader.signature] = nil } == .missing)
        #expect(screened { $0[SignatureHeader.signature] = "not-hex" } == .missing)
        // Hex, but not the 32 bytes of an HMAC-SHA256: nothing can match it.
        #expect(screened { $0[SignatureHeader.signature] = "00" } == .mismatch)
        #expect(screened { $0[SignatureHeader.nonce.lowercased()] = "n2" } == .duplicated)
        // A well-formed signature that is wrong only the body can show: the screen lets it
        // through, and verify refuses it.
        #expect(screened { $0[SignatureHeader.signature] = String(repeating: "ab", count: 32) } == nil)
        // Screening spends no nonce: the request screened twice is still valid once, and
        // then its nonce is refused from the headers alone, whatever body comes with it.
        #expect(verifier.screen(headers: request.headers, now: now) == nil)
        #expect(verifier.verify(request, now: now) == .valid)
        #expect(verifier.screen(headers: request.headers, now: now) == .replayed)
        #expect(screened { $0[SignatureHeader.signature] = String(repeating: "ab", count: 32) } == .replayed)
        // Once the nonce's timestamp leaves the window, the request is stale instead.
        #expect(verifier.screen(headers: request.headers, now: now.addingTimeInterval(301)) == .stale)
    }

    @Test func aRepeatedSignatureHeaderIsRefused() {
        let verifier = SignatureVerifier(secret: secret)
        let request = signed(.get, "http://x/api/a")
        for name in [SignatureHeader.signature, SignatureHeader.nonce, SignatureHeader.timestamp] {
            var twice = request
            twice.headers[name.lowercased()] = request.headers[name]
            #expect(verifier.verify(twice, now: now) == .duplicated)
            var joined = request
            joined.headers[name] = "\(request.headers[name]!), \(request.headers[name]!)"
            #expect(verifier.verify(joined, now: now) == .duplicated)
        }
        #expect(verifier.verify(request, now: now) == .valid)
    }

    @Test func headerNamesAreMatchedCaseInsensitively() {
        let request = signed(.get, "http://x/api/a")
        var lowered = request
        lowered.headers = Dictionary(uniqueKeysWithValues: request.headers.map { ($0.key.lowercased(), $0.value) })
        #expect(SignatureVerifier(secret: secret).verify(lowered, now: now) == .valid)
    }

    @Test func signingAgainReplacesTheOldHeadersWhateverTheirSpelling() {
        var request = signed(.get, "http://x/api/a")
        request.headers = Dictionary(uniqueKeysWithValues: request.headers.map { ($0.key.lowercased(), $0.value) })
        RequestSigner(secret: secret).sign(&request, timestamp: 1_700_000_000, nonce: "n2")
        #expect(request.headers.count == 3)
        #expect(SignatureVerifier(secret: secret).verify(request, now: now) == .valid)
    }

    @Test func theNonceStoreIsBoundedRefusesWhenFullAndReusesExpiredSlots() {
        // 64 slots, the smallest store: it takes at most 64 live nonces, then says so.
        let verifier = SignatureVerifier(secret: secret, maximumAge: 10, nonceCapacity: 1)
        var verdicts: [SignatureVerifier.Verdict] = []
        for index in 0..<80 {
            verdicts.append(verifier.verify(signed(.get, "http://x/api/a", nonce: "n\(index)"), now: now))
        }
        #expect(verdicts.prefix(32).allSatisfy { $0 == .valid })
        #expect(verdicts.contains(.overloaded))
        #expect(verdicts.filter { $0 == .valid }.count <= 64)
        // Once those expire (timestamp + 10 s), their slots take new nonces.
        let later = now.addingTimeInterval(11)
        for index in 0..<32 {
            #expect(
                verifier.verify(
                    signed(.get, "http://x/api/a", nonce: "m\(index)", timestamp: 1_700_000_011),
                    now: later) == .valid)
        }
    }

    @Test(.tags(.regression)) func anAbsurdTimestampIsStaleNotACrash() {
        let verifier = SignatureVerifier(secret: Array("k".utf8))
        for timestamp in ["-9223372036854775808", "9223372036854775807"] {
            let headers = [
                SignatureHeader.timestamp: timestamp, SignatureHeader.nonce: "n", SignatureHeader.signature: "00",
            ]
            let request = HTTPRequest(method: .get, url: URL(string: "http://x/a")!, headers: headers)
            #expect(verifier.verify(request, now: Date()) == .stale)
        }
    }
}

@Suite struct JSONValueTests {
    @Test func parsesEveryKindAndTellsBooleansFromNumbers() throws {
        let value = try JSONValue(parsing: Data(#"{"a":[1,2.5,"x",true,false,null],"b":{"c":0}}"#.utf8))
        #expect(value["a"] == [1, 2.5, "x", true, false, nil])
        #expect(value["a"]?[3]?.boolValue == true)
        #expect(value["a"]?[0]?.boolValue == nil)
        #expect(value["a"]?[0]?.intValue == 1)
        #expect(value["b"]?["c"]?.intValue == 0)
        #expect(value["missing"] == nil)
        #expect(value["a"]?[99] == nil)
    }

    @Test func malformedInputThrowsAClearError() {
        for text in [
            "", "{", "[1 2]", "[1,]", "{\"a\":1,}", "01", "1.", "\"\\ud800\"", "[" + String(repeating: "[", count: 600),
            "{\"a\":}", "nul", "\u{0}",
        ] {
            #expect(throws: JSONParseError.self) { try JSONValue(parsing: Data(text.utf8)) }
        }
    }

    @Test func escapesAndUnicodeParse() throws {
        let value = try JSONValue(parsing: Data(#"["a\"b\\c\n", "\u00e9\ud83d\ude00", "中文", -1.5e3, 0]"#.utf8))
        #expect(value == ["a\"b\\c\n", "é😀", "中文", -1500, 0])
    }

    @Test func encodingIsCanonicalAndRoundTrips() throws {
        let value: JSONValue = ["b": [1, "two\n\"q\""], "a": true, "c": nil, "d": 1.5]
        let text = String(decoding: value.encoded(), as: UTF8.self)
        #expect(text == #"{"a":true,"b":[1,"two\n\"q\""],"c":null,"d":1.5}"#)
        #expect(try JSONValue(parsing: value.encoded()) == value)
    }
}
