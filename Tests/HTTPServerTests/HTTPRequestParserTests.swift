import Networking
import Testing

@testable import HTTPServer

/// The request parser on its own: bytes in, requests or refusals out.
@Suite struct HTTPRequestParserTests {
    /// Feeds `text` (in pieces of `piece` bytes) and collects what came out.
    func outcomes(_ text: String, piece: Int = .max, maximumBody: Int = 1_000, maximumHead: Int = 4_096) -> [String] {
        var parser = HTTPRequestParser(maximumHeadSize: maximumHead, maximumBodySize: maximumBody)
        let bytes = Array(text.utf8)
        var results: [String] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + min(piece, bytes.count))
            var offset = start
            while offset < end {
                let (used, outcome) = bytes[offset..<end].withUnsafeBufferPointer { parser.parse($0) }
                offset += used
                switch outcome {
                case .incomplete: break
                case .headComplete: if parser.expectsContinue { results.append("100") }
                case .request(let request):
                    results.append(
                        "\(String(decoding: request.method, as: UTF8.self)) \(String(decoding: request.target, as: UTF8.self))"
                            + " body=\(String(decoding: request.body, as: UTF8.self)) keepAlive=\(request.keepAlive)")
                case .refused(let refusal):
                    results.append("\(refusal.status) \(refusal.reason)")
                    return results
                }
            }
            start = end
        }
        return results
    }

    @Test func pipelinedRequestsComeOutInOrderWhateverTheChunking() {
        let text =
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let expected = [
            "GET /a body= keepAlive=true", "POST /b body=hello keepAlive=true", "GET /c body= keepAlive=false",
        ]
        for piece in [1, 2, 7, 64, Int.max] {
            #expect(outcomes(text, piece: piece) == expected, "in pieces of \(piece)")
        }
    }

    @Test func theBodyIsHashedAsItArrivesWhateverTheChunkingAndFraming() {
        // 200 bytes: runs that start and end inside SHA-256 blocks, and whole blocks.
        let body = String((0..<200).map { Character(UnicodeScalar(UInt8(33 + $0 % 90))) })
        let sized = "POST /u HTTP/1.1\r\nHost: x\r\nContent-Length: 200\r\n\r\n" + body
        let chunked =
            "POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "3\r\n\(body.prefix(3))\r\n7D\r\n\(body.dropFirst(3).prefix(125))\r\n48\r\n\(body.dropFirst(128))\r\n0\r\n\r\n"
        for text in [sized, chunked] {
            for piece in [1, 5, 64, 100, Int.max] {
                var parser = HTTPRequestParser(maximumHeadSize: 4_096, maximumBodySize: 1_000)
                var request: ParsedRequest?
                let bytes = Array(text.utf8)
                var offset = 0
                while offset < bytes.count, request == nil {
                    let end = min(bytes.count, offset + min(piece, bytes.count))
                    let (used, outcome) = bytes[offset..<end].withUnsafeBufferPointer { parser.parse($0) }
                    offset += used
                    if case .request(let complete) = outcome { request = complete }
                }
                #expect(request?.body == Array(body.utf8))
                #expect(request?.bodyDigest == SHA256.hash(Array(body.utf8)), "in pieces of \(piece)")
            }
        }
    }

    @Test func aRequestWithoutABodyHasNoDigest() {
        var parser = HTTPRequestParser(maximumHeadSize: 4_096, maximumBodySize: 1_000)
        let bytes = Array(
            "GET / HTTP/1.1\r\nHost: x\r\n\r\nPOST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".utf8)
        var offset = 0
        var digests: [[UInt8]?] = []
        while offset < bytes.count {
            let (used, outcome) = bytes[offset...].withUnsafeBufferPointer { parser.parse($0) }
            offset += used
            if case .request(let request) = outcome { digests.append(request.bodyDigest) }
        }
        #expect(digests == [nil, nil])
    }

    @Test func chunkedBodiesAreDecodedAndTrailersSkipped() {
        let text =
            "POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\nA\r\n, world!!!\r\n0\r\nX-Trailer: t\r\n\r\n"
        for piece in [1, 3, Int.max] {
            #expect(outcomes(text, piece: piece) == ["POST /u body=hello, world!!! keepAlive=true"])
        }
        #expect(
            outcomes("POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello!\r\n0\r\n\r\n")
                == ["400 chunk data longer than its size"])
        #expect(
            outcomes("POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") == [
                "400 malformed chunk size"
            ])
        #expect(
            outcomes("POST /u HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3E9\r\n", maximumBody: 1_000)
                == ["413 body larger than 1000 bytes"])
    }

    @Test func framingThatCouldBeReadTwoWaysIsRefused() {
        #expect(
            outcomes("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n")
                == ["400 conflicting Content-Length"])
        #expect(
            outcomes("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\nhello")
                == ["POST / body=hello keepAlive=true"])
        for length in ["+5", "-1", "5 5", "0x5", "", "99999999999999999999"] {
            #expect(
                outcomes("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n") == [
                    "400 malformed Content-Length"
                ])
        }
        #expect(
            outcomes("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n")
                == ["400 both Content-Length and Transfer-Encoding"])
        #expect(
            outcomes("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n")
                == ["501 only the chunked transfer coding is supported"])
        #expect(
            outcomes("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\n\r\n") == [
                "413 body larger than 1000 bytes"
            ])
    }

    @Test func malformedHeadsAreRefusedAtTheFirstBadByte() {
        #expect(outcomes("GET / HTTP/9.9\r\n") == ["505 HTTP version not supported: use HTTP/1.1 or HTTP/1.0"])
        #expect(outcomes("GET / HTTP/2.0\r\n") == ["505 HTTP version not supported: use HTTP/1.1 or HTTP/1.0"])
        #expect(outcomes("GET / HTTX/1.1\r\n") == ["400 malformed HTTP version"])
        #expect(outcomes("GET / HTTP/1.1\nHost: x\n\n") == ["400 a line must end in CR LF"])
        #expect(outcomes("GET / HTTP/1.1\r\nHost: x\n") == ["400 a line must end in CR LF"])
        #expect(outcomes("GET http://x/ HTTP/1.1\r\n") == ["400 the target must be a path"])
        #expect(outcomes("G@T / HTTP/1.1\r\n") == ["400 malformed method"])
        #expect(outcomes(" GET / HTTP/1.1\r\n") == ["400 request line starts with a space"])
        #expect(outcomes("GET / HTTP/1.1\r\nHost : x\r\n") == ["400 malformed header name"])
        #expect(outcomes("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n") == ["400 folded header lines are not accepted"])
        #expect(outcomes("GET / HTTP/1.1\r\nHost: a\u{01}b\r\n") == ["400 control character in a header"])
        #expect(outcomes("GET / HTTP/1.1\r\n\r\n") == ["400 an HTTP/1.1 request needs one Host field"])
        #expect(
            outcomes("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == ["400 an HTTP/1.1 request needs one Host field"]
        )
        // Refused as soon as the bad byte arrives: nothing after it is needed.
        #expect(outcomes("garbage") == [])
        #expect(outcomes("garbage\r") == ["400 malformed method"])
    }

    @Test func limitsOnTheHeadAreKept() {
        let long = "GET /" + String(repeating: "a", count: 5_000) + " HTTP/1.1\r\n"
        #expect(outcomes(long, maximumHead: 4_096) == ["431 request head larger than 4096 bytes"])
        let many = "GET / HTTP/1.1\r\n" + (0...100).map { "X-\($0): 1\r\n" }.joined()
        #expect(outcomes(many, maximumHead: 1 << 20) == ["431 more than 100 header fields"])
    }

    @Test func connectionHandlingFollowsTheVersionAndTheConnectionField() {
        #expect(outcomes("GET / HTTP/1.0\r\n\r\n") == ["GET / body= keepAlive=false"])
        #expect(outcomes("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") == ["GET / body= keepAlive=true"])
        #expect(
            outcomes("GET / HTTP/1.1\r\nHost: x\r\nConnection: upgrade, close\r\n\r\n") == [
                "GET / body= keepAlive=false"
            ])
    }

    @Test func aClientThatExpectsContinueHearsWhenTheHeadIsAccepted() {
        #expect(
            outcomes("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi")
                == ["100", "POST / body=hi keepAlive=true"])
        #expect(
            outcomes("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2000\r\n\r\n")
                == ["413 body larger than 1000 bytes"])
        #expect(
            outcomes("POST / HTTP/1.1\r\nHost: x\r\nExpect: something\r\n\r\n") == [
                "417 only 100-continue can be expected"
            ])
    }
}
