import Dispatch
import Foundation
import Persistence
import Signals
import SignalsTesting
import Testing

/// SQL text and names are compared by their exact UTF-8 bytes, as SQLite compares them:
/// `café` spelt with U+00E9 (composed) and `cafe` + U+0301 (decomposed) are different,
/// although Swift's `String` calls them equal.
@Suite struct ExactTextTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// A table whose name is chosen by the test.
    struct NamedTable: Table {
        let database: Database
        let name: String
        let primaryKey = "id"
        let columns = [Column("id", .integer), Column("note", .text)]
    }

    /// The bytes of a text value, which `SQLiteValue`'s own `==` would not tell apart.
    func bytes(_ value: SQLiteValue?) -> [UInt8]? {
        value?.stringValue.map { Array($0.utf8) }
    }

    @Test func statementsDifferingOnlyInNormalisationAreNotMixedUpByTheCache() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        let first = try database.fetch("SELECT '\(Self.composed)' AS v")
        let second = try database.fetch("SELECT '\(Self.decomposed)' AS v")
        #expect(bytes(first.first?["v"]) == Array(Self.composed.utf8))
        #expect(bytes(second.first?["v"]) == Array(Self.decomposed.utf8))
    }

    @Test func tablesNamedBothWaysStayTwoTablesWithTheirOwnRows() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        let composed = NamedTable(database: database, name: Self.composed)
        let decomposed = NamedTable(database: database, name: Self.decomposed)
        try composed.insert(["note": "composed"])
        try decomposed.insert(["note": "decomposed 1"])
        try decomposed.insert(["note": "decomposed 2"])
        #expect(try composed.findAll().compactMap { $0["note"]?.stringValue } == ["composed"])
        #expect(try decomposed.findAll().compactMap { $0["note"]?.stringValue } == ["decomposed 1", "decomposed 2"])
        let names = try database.fetch("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .compactMap { $0["name"]?.stringValue.map { Array($0.utf8) } }
        #expect(
            names
                == [Array(Self.composed.utf8), Array(Self.decomposed.utf8)].sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func eachTableNamedBothWaysTellsOnlyItsOwnObservers() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        let composed = NamedTable(database: database, name: Self.composed)
        let decomposed = NamedTable(database: database, name: Self.decomposed)
        let composedChanges = composed.changes.record()
        let decomposedChanges = decomposed.changes.record()
        let id = try decomposed.insert(["note": "x"])
        #expect(composedChanges.values.isEmpty)
        #expect(decomposedChanges.values.map(\.inserted) == [[id]])
        #expect(decomposedChanges.values.first.map { Array($0.table.utf8) } == Array(Self.decomposed.utf8))
        #expect(TableChange(table: Self.composed) != TableChange(table: Self.decomposed))
    }

    @Test func columnsNamedBothWaysKeepTheirOwnValues() throws {
        struct TwoColumns: Table {
            let database: Database
            let name = "two"
            let primaryKey = "id"
            let columns = [
                Column("id", .integer), Column(ExactTextTests.composed, .text),
                Column(ExactTextTests.decomposed, .text),
            ]
        }
        let folder = TemporaryFolder()
        let table = TwoColumns(database: folder.database())
        var row = Row()
        row[Self.composed] = "composed"
        row[Self.decomposed] = "decomposed"
        #expect(row.columns.count == 2)
        try table.insert(row)
        let stored = try #require(try table.findAll().first)
        #expect(bytes(stored[Self.composed]) == Array("composed".utf8))
        #expect(bytes(stored[Self.decomposed]) == Array("decomposed".utf8))
        #expect(try table.find(Self.decomposed, in: ["decomposed"]).count == 1)
        #expect(try table.find(Self.composed, in: ["decomposed"]).isEmpty)
    }

    @Test func aColumnSpeltTheOtherWayIsRefusedBeforeWriting() throws {
        struct Composed: Table {
            let database: Database
            let name = "t"
            let primaryKey = "id"
            let columns = [Column("id", .integer), Column(ExactTextTests.composed, .text)]
        }
        let folder = TemporaryFolder()
        let table = Composed(database: folder.database())
        try table.insert([Self.composed: "x"])
        do {
            try table.insert([Self.decomposed: "y"])
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.kind == .invalidRecord)
        }
        #expect(try table.count() == 1)
    }

    @Test func namedParametersAreMatchedByTheirExactName() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        #expect(try database.fetch("SELECT :\(Self.composed) AS v", named: [Self.composed: 1]).first?["v"] == 1)
        #expect(throws: DatabaseError.self) {
            try database.fetch("SELECT :\(Self.composed) AS v", named: [Self.decomposed: 1])
        }
    }

    @Test func filesNamedBothWaysAreTwoDatabases() throws {
        let folder = TemporaryFolder()
        let registry = DatabaseRegistry()
        let composed = registry.database(at: folder.path(Self.composed + ".sqlite"))
        let decomposed = registry.database(at: folder.path(Self.decomposed + ".sqlite"))
        #expect(composed !== decomposed)
        try NamedTable(database: composed, name: "t").insert(["note": "x"])
        #expect(try NamedTable(database: decomposed, name: "t").count() == 0)
    }

    @Test(.tags(.regression)) func textWithNULCharactersIsStoredWhole() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        try database.execute("CREATE TABLE t (v TEXT)")
        let text = "before\u{0}after 中"
        try database.execute("INSERT INTO t VALUES (?)", [.text(text)])
        #expect(try database.fetch("SELECT v FROM t").first?["v"] == .text(text))
    }
}
