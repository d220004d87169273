import Dispatch
import Foundation
import Networking
import Testing

/// The strict parser's strings and numbers, on the fast paths (ASCII strings, short
/// integers) and off them.
@Suite struct JSONParserTests {
    func parse(_ bytes: [UInt8]) throws -> JSONValue { try JSONValue(parsing: Data(bytes)) }
    func parse(_ text: String) throws -> JSONValue { try parse(Array(text.utf8)) }

    @Test func stringsKeepTheirScalars() throws {
        #expect(
            try parse(#"["plain", "", "caf\u00e9", "café", "家 😀", "tab\tq\"b\\s\/"]"#) == [
                "plain", "", "caf\u{E9}", "caf\u{E9}", "家 😀", "tab\tq\"b\\s/",
            ])
        #expect(try parse(#"{"caf\u00e9": "\ud83d\ude00"}"#)["café"] == "😀")
    }

    @Test(
        arguments: [
            [0xFF], // never valid in UTF-8
            [0xC3], // a lead byte with no continuation
            [0x80], // a lone continuation byte
            [0xC0, 0xAF], // an overlong "/"
            [0xED, 0xA0, 0x80], // a surrogate encoded directly
            [0xF4, 0x90, 0x80, 0x80], // beyond U+10FFFF
            [0x61, 0xEF, 0xBF], // a truncated sequence after ASCII
        ] as [[UInt8]])
    func invalidUTF8InAStringIsRejected(_ bad: [UInt8]) {
        // Raw, and after an escape (the slow path), as a value and as a name.
        for document in [
            [0x22] + bad + [0x22], [0x22, 0x5C, 0x6E] + bad + [0x22], [0x7B, 0x22] + bad + Array("\":1}".utf8),
        ] {
            #expect(throws: JSONParseError.self) { try parse(document) }
        }
    }

    @Test func theReplacementCharacterItselfIsValid() throws {
        #expect(try parse([0x22, 0xEF, 0xBF, 0xBD, 0x22]) == "\u{FFFD}")
    }

    @Test func integersAreExact() throws {
        let texts = [
            "0", "-0", "7", "-42", "999999999999999", "-999999999999999", "9007199254740993",
            "12345678901234567890", "1e3", "2.5", "-0.125", "1E-2", "123456789012345.5",
        ]
        let value = try parse("[" + texts.joined(separator: ",") + "]")
        let numbers = try #require(value.arrayValue).compactMap(\.doubleValue)
        #expect(numbers == texts.map { Double($0)! })
        #expect(numbers[1].sign == .minus)
        #expect(value[4]?.intValue == 999_999_999_999_999)
    }

    @Test(arguments: ["01", "-", "1.", "1e", "+1", ".5", "1e400", "-1e400", "--1", "0x10"])
    func malformedNumbersAreRejected(_ text: String) {
        #expect(throws: JSONParseError.self) { try parse(text) }
    }

    @Test(.tags(.regression)) func stringsMustBeValidUTF8AndNestingIsBounded() {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Data([0x22, 0xff, 0xfe, 0x22])) }
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try JSONValue(parsing: Data(fine.utf8)) }
    }
}
