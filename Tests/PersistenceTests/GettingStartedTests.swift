// article: Persistence/GettingStarted
import Foundation
import Persistence
import Signals
import Testing

// A table with weak logic: its columns, and the rule every row must keep.
struct SavedSearchTable: Table {
    let database: Database
    let name = "saved_search"
    let primaryKey = "id"
    let columns = [
        Column("id", .integer), Column("query", .text, notNull: true, unique: true),
        Column("savedAt", .real),
    ]

    func check(_ row: Row) throws {
        if row["query"]?.stringValue?.isEmpty == true {
            throw DatabaseError(.invalidRecord, "a saved search needs a query")
        }
    }
}

// A record: any Codable type stores itself as a row.
struct SavedSearch: Codable, Record {
    var query: String
    var savedAt: Date
}
// article end

/// The code of `Persistence.docc/GettingStarted.md`, run.
@Suite struct PersistenceGettingStartedTests {
    @Test func theArticlesExampleRunsAsItSays() throws {
        // article: Persistence/GettingStarted
        let path = NSTemporaryDirectory() + "saved-searches-\(UUID().uuidString).sqlite"
        let database = DatabaseRegistry.shared.database(at: path)
        // Migrations are named by the module that owns them and run once per database.
        try Migrator([
            Migration("saved searches") { try SavedSearchTable(database: $0).prepare() }
        ]).migrate(database)

        let searches = SavedSearchTable(database: database)
        // A property kept in sync with the stored rows: the count now and after every
        // commit that changes them, or the error reading it.
        let count = searches.observe { try $0.count() }

        try searches.upsert(SavedSearch(query: "loft", savedAt: Date()), uniqueKey: ["query"])
        try searches.upsert(SavedSearch(query: "loft", savedAt: Date()), uniqueKey: ["query"])
        let lofts = try searches.records(SavedSearch.self, where: "query LIKE :pattern", ["pattern": "l%"])
        print(lofts.map(\.query), try count.value.get()) // ["loft"] 1

        do {
            try searches.insert(SavedSearch(query: "", savedAt: Date()))
        } catch {
            print(error) // a saved search needs a query
        }
        // article end
        defer { database.close() }
        #expect(lofts.map(\.query) == ["loft"])
        #expect(try count.value.get() == 1)
        #expect(try searches.count() == 1)
    }

    @Test func theArticlesColumnReadableRecordReadsItsRows() throws {
        let path = NSTemporaryDirectory() + "saved-searches-\(UUID().uuidString).sqlite"
        let database = DatabaseRegistry.shared.database(at: path)
        defer { database.close() }
        let searches = SavedSearchTable(database: database)
        try searches.insert(SavedSearch(query: "loft", savedAt: Date(timeIntervalSince1970: 60)))
        // article: Persistence/GettingStarted
        // Read in place: the fastest way from a fetch to a record.
        struct SearchSummary: ColumnReadable {
            var query: String
            var savedAt: Date?

            init(columns: borrowing ColumnReader) throws {
                query = try columns.value(at: 1)
                savedAt = try columns.value(at: 2)
            }

            func row(for table: any Table) throws -> Row {
                ["query": .text(query), "savedAt": savedAt.map { .real($0.timeIntervalSince1970) } ?? .null]
            }
        }

        let summaries = try searches.records(SearchSummary.self)
        print(summaries.map(\.query)) // ["loft"]
        // article end
        #expect(summaries.map(\.query) == ["loft"])
        #expect(summaries.map(\.savedAt) == [Date(timeIntervalSince1970: 60)])
        // Its `init(row:)` reads a row through the same initializer.
        #expect(try searches.findAll().map { try SearchSummary(row: $0).query } == ["loft"])
    }
}
