import Foundation
import Networking
import Testing

/// Object member names compare by Unicode scalars (RFC 8259 §8.3): `café` spelt with U+00E9
/// and `cafe` + U+0301 are two members, although Swift's `String` calls them equal.
@Suite struct JSONObjectTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"
    /// `{"café":1,"cafe\u0301":2}`, the first name as raw UTF-8, the second with an escape.
    static let text = Data("{\"caf\u{E9}\":1,\"cafe\\u0301\":2}".utf8)

    func scalars(_ names: [String]?) -> [[UInt32]]? {
        names?.map { $0.unicodeScalars.map(\.value) }
    }

    @Test func namesDifferingOnlyInNormalisationAreTwoMembers() throws {
        let value = try JSONValue(parsing: Self.text)
        let object = try #require(value.objectValue)
        #expect(scalars(object.names) == [[0x63, 0x61, 0x66, 0x65, 0x301], [0x63, 0x61, 0x66, 0xE9]])
        #expect(object[Self.composed] == 1)
        #expect(object[Self.decomposed] == 2)
        #expect(value[Self.composed] == 1)
        #expect(value[Self.decomposed] == 2)
    }

    @Test func bothMembersRoundTripThroughEncoding() throws {
        let value = try JSONValue(parsing: Self.text)
        let encoded = value.encoded()
        #expect(Array(encoded) == Array("{\"cafe\u{301}\":2,\"caf\u{E9}\":1}".utf8))
        let again = try JSONValue(parsing: encoded)
        #expect(again == value)
        #expect(again[Self.composed] == 1)
        #expect(again[Self.decomposed] == 2)
    }

    @Test func objectsDifferingOnlyInANamesNormalisationAreNotEqual() throws {
        let composed: JSONValue = [Self.composed: 1]
        let decomposed: JSONValue = [Self.decomposed: 1]
        #expect(composed != decomposed)
        #expect(composed[Self.decomposed] == nil)
        let literal: JSONValue = [Self.composed: 1, Self.decomposed: 2]
        #expect(literal == (try JSONValue(parsing: Self.text)))
    }

    @Test func aNameRepeatedWithTheSameScalarsKeepsItsLastValue() throws {
        let value = try JSONValue(parsing: Data("{\"a\":1,\"b\":true,\"a\":2}".utf8))
        #expect(value.objectValue?.names == ["a", "b"])
        #expect(value["a"] == 2)
        let literal: JSONObject = ["a": 1, "a": 3]
        #expect(literal["a"] == 3)
    }

    @Test func membersAreSetAndRemovedByExactName() {
        var object: JSONObject = [Self.composed: 1]
        object[Self.decomposed] = 2
        #expect(object.names.count == 2)
        object[Self.composed] = nil
        #expect(scalars(object.names) == scalars([Self.decomposed]))
        #expect(JSONValue.object(object).encoded() == Data("{\"cafe\u{301}\":2}".utf8))
    }
}
