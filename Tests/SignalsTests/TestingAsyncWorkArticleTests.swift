import Signals
import SignalsTesting
import Testing

// The article "Testing async work" (SignalsTesting.docc/TestingAsyncWork.md): its code,
// compiled and run; DocumentationExampleTests checks the article shows exactly this.

// article: SignalsTesting/TestingAsyncWork
struct SearchState: Equatable, Sendable {
    var results: [String] = []
    var isSearching = false
}

/// A step of one search: it started, or it found its results.
enum SearchStep: Sendable {
    case started
    case found([String])
}

@MainActor final class SearchLogic {
    let query = MutableProperty("")
    let state: Property<SearchState>
    private let bag = DisposeBag()

    init(scheduler: Scheduler, search: @escaping @Sendable (String) async throws -> [String]) {
        let state = MutableProperty(SearchState())
        self.state = Property(state)
        let steps = query.signal
            .debounce(.milliseconds(300), on: scheduler)
            .flatMapLatest { query in
                Signal<SearchStep>.task { input in
                    input.send(.started)
                    let results = (try? await search(query)) ?? []
                    if !Task.isCancelled { input.send(.found(results)) }
                }
            }
        let states = steps.scan(SearchState()) { state, step in
            switch step {
            case .started: return SearchState(results: state.results, isSearching: true)
            case .found(let results): return SearchState(results: results, isSearching: false)
            }
        }
        // The state changes on the main actor, so the view's bindings run with each change.
        (state <~ states.observe(on: MainScheduler())).dispose(in: bag)
    }
}

@MainActor final class SearchResultsView {
    var spinner = false
    var rows: [String] = []
}

@MainActor final class SearchController {
    let view = SearchResultsView()
    private let bag = DisposeBag()

    init(logic: SearchLogic) {
        logic.state.bind(\.isSearching, to: view) { view, on in view.spinner = on }.dispose(in: bag)
        logic.state.bind(\.results, to: view) { view, rows in view.rows = rows }.dispose(in: bag)
    }
}
// article end

@Suite(.timeLimit(.minutes(1))) struct TestingAsyncWorkArticleTests {
    @Test @MainActor func searchAsYouType() async throws {
        // article: SignalsTesting/TestingAsyncWork
        let scheduler = TestScheduler()
        let clock = scheduler.clock
        let (queries, searched) = Signal<String>.pipe()
        let asked = queries.record()
        let logic = SearchLogic(scheduler: scheduler) { query in
            searched.send(query)
            try await clock.sleep(for: .seconds(1)) // stands for a slow request
            return ["\(query) by the river", "\(query) near the park"]
        }
        let controller = SearchController(logic: logic)

        logic.query.value = "lo"
        scheduler.advance(by: .milliseconds(100))
        logic.query.value = "loft" // typed on: the debounce starts again, "lo" is never searched
        scheduler.advance(by: .milliseconds(300))
        try await clock.waitForSleepers() // the search for "loft" is waiting for its response
        try await logic.state.first { $0.isSearching }
        #expect(controller.view.spinner)

        logic.query.value = "lofts"
        scheduler.advance(by: .milliseconds(300)) // "loft" is still waiting: cancelled, "lofts" starts
        try await clock.waitForSleepers()
        scheduler.advance(by: .seconds(1)) // the response of "lofts" arrives
        try await logic.state.first { !$0.isSearching }
        #expect(controller.view.rows == ["lofts by the river", "lofts near the park"])
        #expect(!controller.view.spinner)
        #expect(asked.values == ["loft", "lofts"])
        // article end
    }
}
