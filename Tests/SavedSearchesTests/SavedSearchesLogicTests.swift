import Foundation
import Persistence
import SavedSearches
import Signals
import SignalsTesting
import Synchronization
import Testing

@MainActor @Suite struct SavedSearchesLogicTests {
    func database() throws -> Database {
        let database = DatabaseRegistry().database(
            at: NSTemporaryDirectory() + "searches-\(UUID().uuidString).sqlite")
        try Migrator(SavedSearchesDataCenter.migrations).migrate(database)
        return database
    }

    /// The searches are the stored rows, observed with `Table.observe`: a search saved or
    /// removed by anyone, this logic or another store, changes the state once.
    @Test func savedSearchesFollowTheStoredRowsWhoeverChangesThem() async throws {
        let database = try database()
        let clock = SteppingClock(from: Date(timeIntervalSince1970: 1_000))
        let logic = SavedSearchesLogic(store: SavedSearchesDataCenter(database: database), clock: clock.now)
        let kinds = logic.state.map { $0.searches.map { "\($0.kind) \($0.filterValues ?? [:])" } }.record()
        #expect(logic.save(kind: "rent", filters: ["rooms": "2"]) == nil)
        #expect(logic.save(kind: "new", filters: [:]) == nil)
        let stored = try #require(logic.state.value.searches.last)
        try SavedSearchesDataCenter(database: database).remove(stored)
        kinds.assertValues([[], ["rent [\"rooms\": \"2\"]"], ["new [:]", "rent [\"rooms\": \"2\"]"], ["new [:]"]])
    }

    /// The same kind and filters are one search, whatever order the filters came in:
    /// saving it again renames it and makes it the last saved.
    @Test func theSameKindAndFiltersAreOneSearchWhateverTheirOrder() async throws {
        let clock = SteppingClock(from: Date(timeIntervalSince1970: 1_000))
        let logic = SavedSearchesLogic(store: SavedSearchesDataCenter(database: try database()), clock: clock.now)
        #expect(logic.save(kind: "rent", filters: ["rooms": "2", "district": "Xuhui"]) == nil)
        #expect(logic.save(kind: "resale", filters: [:]) == nil)
        #expect(logic.save(kind: "rent", filters: ["district": "Xuhui", "rooms": "2"], name: " near work ") == nil)
        let searches = logic.state.value.searches
        #expect(searches.map(\.kind) == ["rent", "resale"])
        #expect(searches.first?.name == "near work")
        #expect(searches.first?.filters == #"{"district":"Xuhui","rooms":"2"}"#)
        #expect(searches.first?.savedAt == Date(timeIntervalSince1970: 1_002))
        // Another kind with the same filters is another search.
        #expect(logic.save(kind: "new", filters: ["rooms": "2", "district": "Xuhui"]) == nil)
        #expect(logic.state.value.searches.count == 3)
    }

    @Test(arguments: ["", "   ", String(repeating: "x", count: 41), "two\nlines", "tab\there"])
    func aBadNameIsRefusedAndNothingIsSaved(name: String) async throws {
        let logic = SavedSearchesLogic(store: SavedSearchesDataCenter(database: try database()))
        let problem = try #require(logic.save(kind: "rent", filters: [:], name: name))
        #expect(problem.hasPrefix("a saved search's name"))
        #expect(logic.state.value.searches.isEmpty)
        #expect(logic.save(kind: "rent", filters: [:], name: String(repeating: "é", count: 40)) == nil)
    }

    /// A stored search that cannot be read is a problem to show, not an empty list; once
    /// the bad row is gone the searches are read again, and the next save clears it.
    @Test func aSearchThatCannotBeReadIsAProblemNotAnEmptyList() async throws {
        let database = try database()
        try database.execute("INSERT INTO saved_search (kind, filters, savedAt) VALUES ('rent', '{}', 'soon')")
        let logic = SavedSearchesLogic(store: SavedSearchesDataCenter(database: database))
        #expect(logic.state.value.searches.isEmpty)
        #expect(logic.state.value.problem?.hasPrefix("saved searches could not be read") == true)
        try database.execute("DELETE FROM saved_search")
        #expect(logic.save(kind: "new", filters: [:]) == nil)
        #expect(logic.state.value.searches.map(\.kind) == ["new"])
        #expect(logic.state.value.problem == nil)
    }

    /// Filters stored by another version, or by hand, that are not a JSON object of
    /// strings read as nothing, never as the wrong filters.
    @Test func filtersThatAreNotAnObjectOfStringsReadAsNothing() {
        for text in ["", "[]", #"{"rooms":2}"#, "{", #"{"rooms":"2"} x"#] {
            var search = SavedSearch(kind: "rent", filters: [:], savedAt: Date())
            search.filters = text
            #expect(search.filterValues == nil, "\(text)")
        }
        #expect(SavedSearch(kind: "rent", filters: ["a/b": "é\""], savedAt: Date()).filterValues == ["a/b": "é\""])
    }
}

@Suite struct SavedSearchesViewModelTests {
    let now = Date(timeIntervalSince1970: 100_000)

    @Test func rowsSayTheNameKindFiltersAndAge() {
        var state = SavedSearchesState()
        state.searches = [
            SavedSearch(
                kind: "new", filters: ["rooms": "2", "district": "Xuhui"], name: "near work",
                savedAt: now.addingTimeInterval(-7_200)),
            SavedSearch(kind: "rent", filters: [:], savedAt: now),
            SavedSearch(kind: "villa", filters: [:], savedAt: now),
        ]
        state.searches[2].filters = "junk"
        let model = SavedSearchesViewModel(state: state, now: now)
        #expect(
            model.rows.map { [$0.number, $0.name, $0.kind, $0.filters, $0.saved] } == [
                ["1", "near work", "New homes", "district=Xuhui rooms=2", "2 h ago"],
                ["2", "-", "Rentals", "none", "just now"],
                ["3", "-", "villa", "(unreadable)", "just now"],
            ])
        #expect(model.footer == "3 saved - run N, delete N")
        #expect(model.status == "")
        state.problem = "saved searches could not be saved: read-only"
        #expect(
            SavedSearchesViewModel(state: state, now: now).status == "! saved searches could not be saved: read-only")
        #expect(SavedSearchesViewModel(state: SavedSearchesState(), now: now).footer.hasPrefix("no saved searches yet"))
    }
}

/// A clock that reads one second later at every call.
final class SteppingClock: Sendable {
    private let next: Mutex<Date>

    init(from start: Date) {
        next = Mutex(start)
    }

    @Sendable func now() -> Date {
        next.withLock { date in
            defer { date = date.addingTimeInterval(1) }
            return date
        }
    }
}
