import Dispatch
import Foundation
import Persistence
import Signals
import SignalsTesting
import Testing

/// The kept SQL, kept statements and in-place change lists behind inserts and finds
/// behave as the plain paths did.
@Suite struct FastPathTests {
    struct QuotedTable: Table {
        let database: Database
        let name: String
        let primaryKey = "id"
        let columns: [Column]
    }

    @Test func quoteDoublesEveryQuoteByteEvenBeforeACombiningMark() {
        // `"` + U+0301 is one character to Swift; the quote must still be doubled.
        let name = "a\"\u{301}b\"c"
        #expect(Array(Database.quote(name).utf8) == Array("\"a\"\"\u{301}b\"\"c\"".utf8))
        #expect(Database.quote("") == "\"\"")
        #expect(Database.quote("plain") == "\"plain\"")
    }

    @Test func namesWithAQuoteBeforeACombiningMarkWork() throws {
        let folder = TemporaryFolder()
        let column = "n\"\u{301}"
        let table = QuotedTable(
            database: folder.database(), name: "t\"\u{301}",
            columns: [Column("id", .integer), Column(column, .text)])
        let id = try table.insert([column: "value"])
        #expect(try table.find(primaryKey: .integer(id))?[column] == "value")
        #expect(try table.count() == 1)
    }

    @Test func rowsInAnyOrderUseOneStatementAndStoreTheSameValues() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let first = try table.insert(["code": "a", "title": "A", "price": 1.5])
        let second = try table.insert(["price": 2.5, "title": "B", "code": "b"])
        let third = try table.insert(["title": "C", "code": "c"])
        #expect(
            try table.find(primaryKey: .integer(first)) == [
                "id": .integer(first), "code": "a", "title": "A",
                "price": 1.5, "rooms": nil, "photo": nil,
            ])
        #expect(try table.find(primaryKey: .integer(second))?["price"] == 2.5)
        #expect(try table.find(primaryKey: .integer(second))?["code"] == "b")
        #expect(try table.find(primaryKey: .integer(third))?["price"] == .null)
    }

    @Test func keptStatementsSurviveTheCacheLettingThemGoAndAClose() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        let table = ListingTable(database: database)
        let first = try table.insert(listing("a", "A"))
        #expect(try table.find(primaryKey: .integer(first))?["code"] == "a")
        // More distinct statements than the cache holds: the kept ones are finalized.
        for number in 0..<80 { _ = try database.fetch("SELECT \(number) AS n") }
        let second = try table.insert(listing("b", "B"))
        #expect(try table.find(primaryKey: .integer(second))?["code"] == "b")
        #expect(try table.find(primaryKey: .integer(first))?["code"] == "a")
        database.close()
        let third = try table.insert(listing("c", "C"))
        #expect(try table.find(primaryKey: .integer(third))?["code"] == "c")
        #expect(try table.count() == 3)
    }

    @Test func aFailedStatementLeavesNoRowsInATransactionsChange() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let recorder = table.changes.record()
        let kept = try table.database.transaction { database -> [Int64] in
            let first = try table.insert(listing("a", "A"))
            // Two rows go in, then the third breaks the unique code: SQLite undoes the
            // statement, and its two rows must not be reported.
            #expect(throws: DatabaseError.self) {
                try database.execute("INSERT INTO listing (code, title) VALUES ('x', 'X'), ('y', 'Y'), ('a', 'dup')")
            }
            let second = try table.insert(listing("b", "B"))
            return [first, second]
        }
        #expect(recorder.values.map(\.inserted) == [kept])
        #expect(try table.count() == 2)
    }

    @Test func aFailedStatementOutsideATransactionSendsNothing() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let first = try table.insert(listing("a", "A"))
        let recorder = table.changes.record()
        #expect(throws: DatabaseError.self) {
            try table.database.execute("INSERT INTO listing (code, title) VALUES ('x', 'X'), ('a', 'dup')")
        }
        #expect(recorder.values.isEmpty)
        let second = try table.insert(listing("b", "B"))
        #expect(recorder.values.map(\.inserted) == [[second]])
        #expect(second != first)
    }

    @Test func aBigValueIsStoredWholeAndTheNextRowGetsItsOwn() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let big = String(repeating: "x", count: 100_000)
        let first = try table.insert(["code": "big", "title": .text(big)])
        let second = try table.insert(["code": "small", "title": "s"])
        #expect(try table.find(primaryKey: .integer(first))?["title"]?.stringValue?.utf8.count == 100_000)
        #expect(try table.find(primaryKey: .integer(second))?["title"] == "s")
    }

    @Test func rowsCompareAndHashWhateverTheirOrder() {
        let one: Row = ["a": 1, "b": "two", "c": nil]
        let other: Row = ["c": nil, "a": 1, "b": "two"]
        #expect(one == other)
        #expect(Set([one, other]).count == 1)
        #expect(one != ["a": 1, "b": "two"])
        #expect(one != ["a": 1, "b": "two", "d": nil])
        let twice: Row = ["a": 1, "b": 2, "a": 3]
        #expect(twice.columns == ["a", "b"])
        #expect(twice["a"] == 3)
        var removed = one
        removed["b"] = nil
        #expect(removed.columns == ["a", "c"])
        #expect(removed["b"] == nil)
    }

    @Test func aQueryNamingAColumnTwiceKeepsTheLastValue() throws {
        let folder = TemporaryFolder()
        let rows = try folder.database().fetch("SELECT 1 AS v, 2 AS w, 3 AS v")
        #expect(rows.first?.columns == ["v", "w"])
        #expect(rows.first?["v"] == 3)
    }
}

@Suite struct FastPathSchemaTests {
    @Test func aKeptFindByKeySeesAColumnAddedLater() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let id = try table.insert(listing("a", "A"))
        #expect(try table.find(primaryKey: .integer(id))?.columns.contains("note") == false)
        try table.database.execute("ALTER TABLE listing ADD COLUMN note TEXT")
        try table.database.execute("UPDATE listing SET note = 'n'")
        let row = try #require(try table.find(primaryKey: .integer(id)))
        #expect(row.columns.last == "note")
        #expect(row["note"] == "n")
    }

    @Test func recordsDecodeWhateverTheColumnOrder() throws {
        struct Listing: Codable, Record, Equatable {
            var price: Double?
            var title: String
            var code: String
            var rooms: Int?
            var id: Int64?
        }
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert(Listing(price: 10, title: "A", code: "a", rooms: nil, id: nil))
        try table.insert(Listing(price: nil, title: "B", code: "b", rooms: 3, id: nil))
        let records = try table.records(Listing.self)
        #expect(
            records == [
                Listing(price: 10, title: "A", code: "a", rooms: nil, id: 1),
                Listing(price: nil, title: "B", code: "b", rooms: 3, id: 2),
            ])
    }

    @Test(.tags(.regression)) func readsAfterASchemaChangeUseTheNewColumns() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        try database.execute("CREATE TABLE t (a, b, c)")
        try database.execute("INSERT INTO t VALUES (1, 'bee', 'sea')")
        _ = try database.fetch("SELECT * FROM t")
        try database.execute("ALTER TABLE t DROP COLUMN b")
        #expect(try database.fetch("SELECT * FROM t") == [["a": 1, "c": "sea"]])
        try database.execute("ALTER TABLE t ADD COLUMN d TEXT")
        #expect(try database.fetch("SELECT * FROM t") == [["a": 1, "c": "sea", "d": nil]])
    }
}

@Suite struct NamedParameterTests {
    @Test func eachNamedParameterGetsItsOwnValueWhateverThePrefix() throws {
        let folder = TemporaryFolder()
        let rows = try folder.database().fetch(
            "SELECT :a AS a, @bb AS b, $a AS c, :a AS d",
            named: ["a": 1, "bb": "two", "unused": 3])
        #expect(rows == [["a": 1, "b": "two", "c": 1, "d": 1]])
    }

    @Test func aMissingNamedValueIsNamedInTheError() throws {
        let folder = TemporaryFolder()
        do {
            _ = try folder.database().fetch("SELECT :here AS h, :missing AS m", named: ["here": 1, "missin": 2])
            Issue.record("a missing value was not refused")
        } catch let error as DatabaseError {
            #expect(error.message.contains(":missing"))
        }
    }
}
