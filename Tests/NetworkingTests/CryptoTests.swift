import Networking
import Testing

@Suite struct CryptoTests {
    // FIPS 180-4 examples (NIST "SHA256.pdf" and the CSRC example values).
    @Test func sha256OfFIPSExamples() {
        #expect(
            SHA256.hash(Array("abc".utf8)).hexString
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hash(Array("".utf8)).hexString
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexString
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hash(
                Array(
                    ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                        + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8)
            ).hexString
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func sha256OfAMillionAs() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000)
        for _ in 0..<1_000 { hasher.update(chunk) }
        #expect(hasher.finalize().hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha256AcrossBlockBoundaries() {
        // Lengths around the 55/56/64-byte padding edges hash the same fed whole or in pieces.
        for length in [55, 56, 57, 63, 64, 65, 119, 120, 128] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            var pieces = SHA256()
            pieces.update(bytes.prefix(length / 3))
            pieces.update(bytes.dropFirst(length / 3))
            #expect(pieces.finalize() == SHA256.hash(bytes))
        }
    }

    // RFC 4231 test cases 1-4, 6 and 7 (case 5 is a truncated output).
    @Test(arguments: [
        (
            [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            Array(1...25), [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            [UInt8](repeating: 0xaa, count: 131),
            Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ])
    func hmacSHA256OfRFC4231Vectors(key: [UInt8], message: [UInt8], expected: String) {
        #expect(HMACSHA256.authenticationCode(for: message, key: key).hexString == expected)
    }

    @Test func hexRoundTripAndBadHex() {
        #expect([UInt8](hexString: "00ff10Ab") == [0x00, 0xff, 0x10, 0xab])
        #expect([UInt8](hexString: "abc") == nil)
        #expect([UInt8](hexString: "zz") == nil)
        #expect([UInt8]([1, 2, 254]).hexString == "0102fe")
    }

    @Test func constantTimeComparison() {
        #expect(HMACSHA256.isEqual([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.isEqual([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.isEqual([1, 2], [1, 2, 3]))
    }
}
