import Foundation
import Networking
import Testing

@Suite struct SigningTests {
    let secret = Array("test-secret".utf8)

    @Test func canonicalParametersAreSortedAndEscaped() {
        let text = CanonicalParameters.encode(["b": "2", "a": "x y&z=1", "中": "文"])
        #expect(text == "a=x%20y%26z%3D1&b=2&%E4%B8%AD=%E6%96%87")
        #expect(CanonicalParameters.decode(text) == ["b": "2", "a": "x y&z=1", "中": "文"])
        #expect(CanonicalParameters.decode("a=1&a=2&empty=&flag") == ["a": "2", "empty": "", "flag": ""])
    }

    @Test func signatureIsHMACOfTheSigningText() {
        let signer = RequestSigner(secret: secret)
        let text = RequestSigner.signingText(apiName: "rentals/list", parameters: ["page": "1"], timestamp: 1_700_000_000, nonce: "n1")
        #expect(text == "rentals/list\npage=1\n1700000000\nn1")
        #expect(signer.signature(apiName: "rentals/list", parameters: ["page": "1"], timestamp: 1_700_000_000, nonce: "n1")
            == HMACSHA256.authenticationCode(for: Array(text.utf8), key: secret).hexString)
    }

    @Test func verifierAcceptsFreshAndRejectsStaleTamperedAndMissing() {
        let signer = RequestSigner(secret: secret)
        let verifier = SignatureVerifier(secret: secret, maximumAge: 300)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let headers = signer.headers(apiName: "api", parameters: ["a": "1"], timestamp: 1_700_000_000, nonce: "n")
        #expect(verifier.verify(apiName: "api", parameters: ["a": "1"], headers: headers, now: now) == .valid)
        #expect(verifier.verify(apiName: "api", parameters: ["a": "2"], headers: headers, now: now) == .mismatch)
        #expect(verifier.verify(apiName: "other", parameters: ["a": "1"], headers: headers, now: now) == .mismatch)
        #expect(verifier.verify(apiName: "api", parameters: ["a": "1"], headers: headers,
                                now: now.addingTimeInterval(301)) == .stale)
        #expect(verifier.verify(apiName: "api", parameters: ["a": "1"], headers: headers,
                                now: now.addingTimeInterval(-301)) == .stale)
        #expect(verifier.verify(apiName: "api", parameters: ["a": "1"], headers: [:], now: now) == .missing)
        var garbled = headers
        garbled[SignatureHeader.signature] = "not-hex"
        #expect(verifier.verify(apiName: "api", parameters: ["a": "1"], headers: garbled, now: now) == .missing)
        let otherKey = SignatureVerifier(secret: Array("other".utf8))
        #expect(otherKey.verify(apiName: "api", parameters: ["a": "1"], headers: headers, now: now) == .mismatch)
    }

    @Test func headerNamesAreMatchedCaseInsensitively() {
        let signer = RequestSigner(secret: secret)
        let now = Date(timeIntervalSince1970: 1_000)
        let headers = signer.headers(apiName: "api", parameters: [:], timestamp: 1_000, nonce: "n")
        let lowered = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
        #expect(SignatureVerifier(secret: secret).verify(apiName: "api", parameters: [:], headers: lowered, now: now) == .valid)
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
        for text in ["", "{", "[1 2]", "[1,]", "{\"a\":1,}", "01", "1.", "\"\\ud800\"", "[" + String(repeating: "[", count: 600), "{\"a\":}", "nul", "\u{0}"] {
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
