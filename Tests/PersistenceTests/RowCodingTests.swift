import Foundation
import Persistence
import Testing

/// A record with a property of every width and kind the row coder stores, plain and optional.
private struct EveryKind: Codable, Record, Equatable {
    var flag = true
    var ratio: Float = 0.5
    var tiny: Int8 = -8
    var small: Int16 = -16
    var medium: Int32 = -32
    var large: Int64 = -64
    var count: UInt = 1
    var byte: UInt8 = 8
    var word: UInt16 = 16
    var double: UInt32 = 32
    var quad: UInt64 = 64
    var link = URL(string: "https://example.com/a?b=c")!
    var maybeFlag: Bool? = false
    var maybeRatio: Float? = 1.5
    var maybeTiny: Int8? = 1
    var maybeSmall: Int16? = 2
    var maybeMedium: Int32? = 3
    var maybeCount: UInt? = 4
    var maybeByte: UInt8? = 5
    var maybeWord: UInt16? = 6
    var maybeDouble: UInt32? = 7
    var maybeQuad: UInt64? = 8
    var missing: Int8?
}

private struct EveryKindTable: Table {
    let database: Database
    let name = "every_kind"
    let primaryKey = "id"
    let columns =
        [Column("id", .integer), Column("ratio", .real), Column("maybeRatio", .real), Column("link", .text)]
        + [
            "flag", "tiny", "small", "medium", "large", "count", "byte", "word", "double", "quad", "maybeFlag",
            "maybeTiny",
            "maybeSmall", "maybeMedium", "maybeCount", "maybeByte", "maybeWord", "maybeDouble", "maybeQuad", "missing",
        ]
        .map { Column($0, .integer) }
}

/// Encodes itself as a list, which a row cannot hold.
private struct Listed: Codable, Record {
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        try list.encode(1)
    }
}

/// Encodes a nested container, which a row cannot hold either.
private struct Nested: Codable, Record {
    enum Keys: String, CodingKey { case inner }
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Keys.self)
        var inner = keyed.nestedContainer(keyedBy: Keys.self, forKey: .inner)
        try inner.encode(1, forKey: .inner)
    }
}

private struct Tiny: Codable, Record {
    var tiny: Int8
}

@Suite struct RowCodingTests {
    @Test func everyWidthAndKindComesBackAsStored() throws {
        let folder = TemporaryFolder()
        let table = EveryKindTable(database: folder.database())
        try table.prepare()
        let stored = EveryKind()
        try table.insert(stored)
        var empty = EveryKind()
        (empty.maybeFlag, empty.maybeRatio, empty.maybeTiny, empty.maybeQuad) = (nil, nil, nil, nil)
        try table.insert(empty)
        #expect(try table.records(EveryKind.self) == [stored, empty])
    }

    @Test func whatARowCannotHoldIsRefusedWithItsReason() throws {
        let folder = TemporaryFolder()
        let table = EveryKindTable(database: folder.database())
        try table.prepare()
        var huge = EveryKind()
        huge.quad = UInt64.max
        #expect { try table.insert(huge) } throws: { "\($0)".contains("does not fit an SQLite integer") }
        #expect { try table.insert(Listed()) } throws: { "\($0)".contains("must encode as keyed properties") }
        #expect { try table.insert(Nested()) } throws: { "\($0)".contains("nested containers are not supported") }
        #expect(try table.count() == 0)
    }

    @Test func aStoredValueTooWideForItsPropertyIsAnError() throws {
        var row = Row()
        row["tiny"] = .integer(300)
        #expect(throws: (any Error).self) { try Tiny(row: row) }
        row["tiny"] = .text("three")
        #expect(throws: (any Error).self) { try Tiny(row: row) }
        row["tiny"] = .integer(3)
        #expect(try Tiny(row: row).tiny == 3)
    }
}
