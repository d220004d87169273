import Dispatch
import Foundation
import Persistence
import Signals
import SignalsTesting
import Testing

@Suite struct BadInputTests {
    @Test func aFileThatIsNotADatabaseIsReportedAndLeftIntact() throws {
        let folder = TemporaryFolder()
        let path = folder.path("notes.txt")
        let original = Data(String(repeating: "These are my notes, not a database.\n", count: 200).utf8)
        try original.write(to: URL(fileURLWithPath: path))
        let table = ListingTable(database: DatabaseRegistry().database(at: path))
        do {
            try table.insert(listing("a", "A"))
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.kind == .notADatabase)
            #expect(error.message.contains("notes.txt"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    @Test func aCorruptDatabaseIsReportedNotCrashed() throws {
        let folder = TemporaryFolder()
        let path = folder.path("corrupt.sqlite")
        do {
            let table = ListingTable(database: DatabaseRegistry().database(at: path))
            try table.insert([listing("a", "A"), listing("b", "B")])
            try table.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in stride(from: 100, to: min(bytes.count, 4_096), by: 1) { bytes[index] = 0xA5 }
        try bytes.write(to: URL(fileURLWithPath: path))
        let table = ListingTable(database: DatabaseRegistry().database(at: path))
        #expect(throws: DatabaseError.self) { _ = try table.count() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func aReadOnlyLocationIsAClearError() throws {
        guard getuid() != 0 else {
            // root ignores file permissions; use a path under a file instead.
            let folder = TemporaryFolder()
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path("plain")))
            let table = ListingTable(database: DatabaseRegistry().database(at: folder.path("plain") + "/db.sqlite"))
            do {
                try table.insert(listing("a", "A"))
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.kind == .cannotOpen)
                #expect(error.message.contains("cannot open the database at"))
            }
            return
        }
        let folder = TemporaryFolder()
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: folder.url.path)
        let table = ListingTable(database: DatabaseRegistry().database(at: folder.path("db.sqlite")))
        #expect(throws: DatabaseError.self) { try table.insert(listing("a", "A")) }
    }

    @Test func aReadOnlyFileRefusesWritesAndKeepsItsData() throws {
        let folder = TemporaryFolder()
        let path = folder.path("ro.sqlite")
        do {
            let table = ListingTable(database: DatabaseRegistry().database(at: path))
            try table.insert(listing("a", "A"))
            try table.database.execute("PRAGMA journal_mode=DELETE")
        }
        let database = DatabaseRegistry().database(at: path)
        try database.execute("PRAGMA query_only=1")
        let table = ListingTable(database: database)
        do {
            try table.insert(listing("b", "B"))
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.kind == .readOnly)
        }
        #expect(try table.count() == 1)
    }

    @Test func aTableWhoseSchemaDiffersIsASchemaMismatch() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        try database.execute("CREATE TABLE listing (id INTEGER PRIMARY KEY, code TEXT, title TEXT)")
        let table = ListingTable(database: database)
        do {
            _ = try table.count()
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.kind == .schemaMismatch)
            #expect(error.message.contains("has no column price"))
        }
        try database.execute("DROP TABLE listing")
        try database.execute(
            "CREATE TABLE listing (id INTEGER PRIMARY KEY, code TEXT, title TEXT, price TEXT, rooms INTEGER, photo BLOB)"
        )
        let other = ListingTable(database: DatabaseRegistry().database(at: database.path))
        #expect(throws: DatabaseError(.schemaMismatch, "column listing.price is TEXT, expected REAL")) {
            _ = try other.count()
        }
    }

    @Test func nanIsRefusedBeforeWritingNotStoredAsNull() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let id = try table.insert(listing("a", "Loft", price: 2_500))
        do {
            try table.insert(listing("b", "Studio", price: .nan))
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.kind == .invalidRecord)
            #expect(error.message.contains("listing.price is NaN"))
        }
        #expect(throws: DatabaseError.self) { try table.update(primaryKey: .integer(id), ["price": .real(.nan)]) }
        #expect(throws: DatabaseError.self) {
            try table.insert([listing("c", "Villa"), listing("d", "Flat", price: .nan)])
        }
        #expect(throws: DatabaseError.self) {
            try table.database.execute("UPDATE listing SET price = ? WHERE id = ?", [.real(.nan), .integer(id)])
        }
        #expect(try table.findAll().map { $0["price"] } == [.real(2_500)])
    }

    @Test func aRecordHoldingNaNIsRefused() throws {
        struct Reading: Codable, Record {
            var code: String
            var title: String
            var price: Double
        }
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        #expect(throws: DatabaseError.self) { try table.insert(Reading(code: "a", title: "Loft", price: .nan)) }
        try table.insert(Reading(code: "b", title: "Studio", price: .infinity))
        #expect(try table.findAll().map { $0["price"] } == [.real(.infinity)])
    }

    @Test func badSQLIsAnErrorWithTheStatement() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        do {
            try database.execute("SELEKT 1")
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message.contains("SELEKT 1"))
        }
        #expect(throws: DatabaseError.self) { try database.execute("SELECT ?, ?", [1]) }
    }

    @Test(.tags(.regression)) func severalStatementsInOneStringAreRefusedNotHalfRun() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        #expect(throws: DatabaseError.self) { try database.execute("CREATE TABLE a (x); CREATE TABLE b (y)") }
        #expect(try database.fetch("SELECT name FROM sqlite_master WHERE type = 'table'").isEmpty)
        try database.execute("CREATE TABLE a (x);  \n")
    }
}

@Suite struct RecordTests {
    struct Listing: Codable, Equatable, Record {
        var id: Int64?
        var code: String
        var title: String
        var price: Double
        var rooms: Int
        var photo: Data?
    }

    @Test func codableRecordsRoundTrip() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let stored = Listing(
            id: nil, code: "r-1", title: "Loft \"ü\"", price: 2_500.5, rooms: 2, photo: Data([1, 2, 3]))
        let id = try table.insert(stored)
        var expected = stored
        expected.id = id
        #expect(try table.record(Listing.self, primaryKey: .integer(id)) == expected)
        #expect(try table.records(Listing.self, where: "rooms = :r", ["r": 2]) == [expected])
    }

    @Test func aRowThatDoesNotFitTheRecordIsAnErrorNamingTheColumn() throws {
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        try table.insert(["code": "x", "title": "T", "price": .text("cheap")])
        do {
            _ = try table.records(Listing.self)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("price"))
        }
    }

    /// A record spanning two tables, behind a data center with a business-friendly API.
    struct Favorite: Record, Equatable {
        var code: String
        var title: String
        var note: String

        func row(for table: any Table) -> Row {
            table.name == "listing"
                ? ["code": .text(code), "title": .text(title)] : ["code": .text(code), "note": .text(note)]
        }

        init(code: String, title: String, note: String) {
            self.code = code
            self.title = title
            self.note = note
        }

        init(row: Row) throws {
            guard let code = row["code"]?.stringValue, let title = row["title"]?.stringValue else {
                throw DatabaseError(.invalidRecord, "a favourite needs a code and a title")
            }
            self.init(code: code, title: title, note: row["note"]?.stringValue ?? "")
        }
    }

    struct NoteTable: Table {
        let database: Database
        let name = "note"
        let primaryKey = "code"
        let columns = [Column("code", .text), Column("note", .text)]
    }

    final class FavoritesDataCenter {
        let listings: ListingTable
        let notes: NoteTable

        init(database: Database) {
            listings = ListingTable(database: database)
            notes = NoteTable(database: database)
        }

        func save(_ favorite: Favorite) throws {
            try listings.database.transaction(.immediate) { _ in
                try listings.upsert(favorite, uniqueKey: ["code"])
                try notes.upsert(favorite, uniqueKey: ["code"])
            }
        }

        func favorites() throws -> [Favorite] {
            try listings.database.fetch(
                """
                SELECT listing.code, listing.title, note.note FROM listing
                JOIN note ON note.code = listing.code ORDER BY listing.code
                """
            ).map { try Favorite(row: $0) }
        }
    }

    @Test func aRecordCanSpanTwoTablesBehindADataCenter() throws {
        let folder = TemporaryFolder()
        let center = FavoritesDataCenter(database: folder.database())
        try center.save(Favorite(code: "b", title: "Studio", note: "quiet"))
        try center.save(Favorite(code: "a", title: "Loft", note: "sunny"))
        try center.save(Favorite(code: "a", title: "Loft", note: "very sunny"))
        #expect(
            try center.favorites() == [
                Favorite(code: "a", title: "Loft", note: "very sunny"),
                Favorite(code: "b", title: "Studio", note: "quiet"),
            ])
    }

    @Test(.tags(.regression)) func valuesThatCannotBeStoredAreErrorsNotSilentRows() throws {
        struct Big: Codable, Record {
            var key: String
            var count: UInt64
        }
        struct BigTable: Table {
            let database: Database
            let name = "big"
            let primaryKey = "id"
            let columns = [Column("id", .integer), Column("key", .text), Column("count", .integer)]
        }
        let folder = TemporaryFolder()
        let table = BigTable(database: folder.database())
        #expect(throws: EncodingError.self) { try table.insert(Big(key: "x", count: .max)) }
        #expect(try table.count() == 0)
    }
}
