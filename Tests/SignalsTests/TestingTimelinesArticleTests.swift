import Signals
import SignalsTesting
import Testing

// The article "Testing timelines" (SignalsTesting.docc/TestingTimelines.md): its code,
// compiled and run; DocumentationExampleTests checks the article shows exactly this.

// article: SignalsTesting/TestingTimelines
enum WikipediaError: Error, Equatable {
    case offline
}

/// RxExample's Wikipedia search, ported: where `asDriver()` put the debounce on the main
/// scheduler, the scheduler is a parameter that defaults to it.
final class WikipediaSearchViewModel: Sendable {
    let query = MutableProperty("")
    let results: Signal<[String]>
    let problems: Signal<WikipediaError>

    init(
        search: @escaping @Sendable (String) -> Producer<[String], WikipediaError>,
        scheduler: Scheduler = MainScheduler()
    ) {
        let responses = query.signal
            .debounce(.milliseconds(300), on: scheduler)
            .skipRepeats()
            .flatMapLatest(search)
        results = responses.successes()
        problems = responses.failures()
    }
}

/// The view hops to the main actor itself: `observe(on: MainScheduler())` takes a
/// `@MainActor` closure, checked by the compiler, whatever scheduler the view model has.
@MainActor final class WikipediaSearchView {
    private(set) var rows: [String] = []
    private let bag = DisposeBag()

    init(viewModel: WikipediaSearchViewModel) {
        viewModel.results.observe(on: MainScheduler()).bind(to: self) { view, rows in view.rows = rows }
            .dispose(in: bag)
    }
}
// article end

@Suite(.timeLimit(.minutes(1))) struct TestingTimelinesArticleTests {
    /// Not `@MainActor`, and no real waiting: the test scheduler stands where the main
    /// scheduler would.
    @Test func aSearchPortedFromRxSwiftRunsOnVirtualTime() {
        // article: SignalsTesting/TestingTimelines
        let scheduler = TestScheduler()
        let frame = Duration.milliseconds(100)
        let viewModel = WikipediaSearchViewModel(
            search: { query in
                query == "swift"
                    ? Producer(marbles: "--(r|)", values: ["r": ["Swift (language)"]], frame: frame, on: scheduler)
                    : Producer(marbles: "---#", failures: ["#": .offline], frame: frame, on: scheduler)
            },
            scheduler: scheduler)
        let results = viewModel.results.record(on: scheduler)
        let problems = viewModel.problems.record(on: scheduler)

        scheduler.drive(
            viewModel.query, with: "s1s2-----s3", values: ["s1": "sw", "s2": "swift", "s3": "lake"], frame: frame)
        scheduler.run()

        results.assertMarbles("-------r", values: ["r": ["Swift (language)"]], frame: frame)
        problems.assertMarbles("---------------o", values: ["o": .offline], frame: frame)
        // article end
    }

    /// In the app the default scheduler runs the debounce on the main actor, where the
    /// view's hop delivers at once (6.8 in the contract).
    @Test @MainActor func onTheDefaultMainSchedulerTheViewGetsTheResultsOnTheMainActor() async throws {
        let viewModel = WikipediaSearchViewModel(search: { query in Producer(value: ["\(query) (language)"]) })
        let view = WikipediaSearchView(viewModel: viewModel)
        let results = viewModel.results.record()
        viewModel.query.value = "swift"
        #expect(try await results.values(count: 1) == [["swift (language)"]])
        #expect(view.rows == ["swift (language)"])
    }
}
