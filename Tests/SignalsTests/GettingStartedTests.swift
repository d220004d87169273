// article: Signals/GettingStarted
import Foundation
import Signals
import SignalsTesting
import Synchronization
import Testing

struct SearchViewModel: Equatable {
    var prompt = "Type at least 2 letters"
    var canSearch = false
}

@MainActor final class SearchView {
    var prompt = ""
    var isButtonEnabled = false
}
// article end

/// The code of `Signals.docc/GettingStarted.md`, run; `DocumentationExampleTests` checks
/// that the article shows exactly the marked regions.
@Suite struct GettingStartedTests {
    @Test @MainActor func theArticlesExampleRunsAsItSays() {
        // article: Signals/GettingStarted
        // State: a property always has a value and tells its observers about every change.
        let query = MutableProperty("")

        // Derived state: read-only, and consistent with its source after every change.
        let viewModel: Property<SearchViewModel> = query.map { text in
            let words = text.trimmingCharacters(in: .whitespaces)
            return SearchViewModel(
                prompt: words.count < 2 ? "Type at least 2 letters" : "Search for \(words)",
                canSearch: words.count >= 2)
        }

        // Bindings run on the main actor, skip repeats, hold the view weakly, end with the bag.
        let view = SearchView()
        let bag = DisposeBag()
        viewModel.bind(\.prompt, to: view) { view, prompt in view.prompt = prompt }.dispose(in: bag)
        viewModel.bind(\.canSearch, to: view) { view, enabled in view.isButtonEnabled = enabled }.dispose(in: bag)

        query.value = " loft "
        print(view.prompt, view.isButtonEnabled) // Search for loft true
        // article end
        #expect(view.prompt == "Search for loft")
        #expect(view.isButtonEnabled)
        // article: Signals/GettingStarted
        // Events: a signal carries taps; operators shape them.
        let (taps, tap) = Signal<Void>.pipe()
        let searched = MutableProperty<[String]>([])
        searched <~ taps.withLatest(from: query).map { _, text in text }.scan([]) { $0 + [$1] }
        tap.send()
        query.value = "studio"
        tap.send()
        print(searched.value) // [" loft ", "studio"]
        // article end
        #expect(view.prompt == "Search for studio")
        #expect(view.isButtonEnabled)
        #expect(searched.value == [" loft ", "studio"])
    }

    @Test @MainActor func theSearchScreenRunsAsTheArticleSays() {
        let scheduler = TestScheduler()
        let api = FlakyListingsAPI(scheduler: scheduler)
        let bag = DisposeBag()
        // article: Signals/GettingStarted
        // A request is a Producer: cold, run again by retry, failing with a typed error.
        let query = MutableProperty("")
        let activity = Activity<SearchFailure>()
        let rows: Signal<[String]> = query.signal
            .debounce(.milliseconds(300), on: scheduler) // QueueScheduler.main in the app
            .filter { $0.count >= 2 }
            .flatMapLatest { text in // a new query cancels the search in flight
                activity.track(api.search(text).retry(upTo: 2, after: .seconds(1), on: scheduler))
                    .replaceError(with: []) // a failed search shows no rows; the stream goes on
            }

        // One view model from the rows, the running state and the last failure.
        let viewModel = Property.combineLatest(Property(initial: [], then: rows), activity.isRunning, activity.failure)
            .map { rows, searching, failure in
                ResultsViewModel(rows: rows, isSearching: searching, problem: failure.map { "\($0)" })
            }
        let view = ResultsView()
        viewModel.bind(\.isSearching, to: view) { view, searching in view.spinner = searching }.dispose(in: bag)
        viewModel.bind(\.rows, to: view) { view, rows in view.rows = rows }.dispose(in: bag)

        query.value = "river"
        scheduler.advance(by: .milliseconds(300))
        print(view.spinner) // true
        scheduler.advance(by: .seconds(2)) // the first request fails; the retry answers
        print(view.rows, view.spinner) // ["Loft by the river"] false
        // article end
        #expect(view.rows == ["Loft by the river"])
        #expect(!view.spinner)
        #expect(api.requests.load(ordering: .relaxed) == 2)
        #expect(viewModel.value.problem == nil)
    }

    @Test func theTestingArticlesExampleRunsAsItSays() {
        // article: SignalsTesting/GettingStarted
        let total = MutableProperty(0)
        let totals = total.signal.record()
        total.value = 2
        total.value = 5
        totals.assertValues([2, 5])

        let (taps, tap) = Signal<Int>.pipe()
        let sums = taps.scan(0, +).record(exhaustive: true)
        tap.send(1)
        tap.send(2)
        sums.expect(1, 3)
        tap.sendCompleted()
        sums.expectCompleted()
        sums.finish()
        // article end
        #expect(totals.values == [2, 5])
        #expect(sums.isCompleted)
    }

    @Test func theTestingArticlesMarblesRunAsTheySay() {
        // article: SignalsTesting/GettingStarted
        let scheduler = TestScheduler()
        let (queries, query) = Signal<String>.pipe()
        let searches = queries.debounce(.seconds(2), on: scheduler).record(on: scheduler)
        scheduler.drive(query, with: "ab---c|")
        scheduler.run()
        searches.assertMarbles("---b--(c|)")
        // article end
        #expect(searches.values == ["b", "c"])
    }

    @Test @MainActor func theTestingArticlesAwaitingRunsAsItSays() async throws {
        // article: SignalsTesting/GettingStarted
        let (results, result) = Signal<String>.pipe()
        Task { @MainActor in result.send("loft") } // runs once the test awaits
        #expect(try await results.next() == "loft")

        let progress = MutableProperty(0)
        DispatchQueue.global().async { progress.value = 100 }
        try await progress.first { $0 == 100 } // the current value counts

        let pages = results.record()
        result.send("studio") // sent before the await: the recorder has it
        #expect(try await pages.values(count: 1) == ["studio"])
        // article end
        #expect(progress.value == 100)
    }
}

// article: Signals/GettingStarted
struct ResultsViewModel: Equatable {
    var rows: [String] = []
    var isSearching = false
    var problem: String?
}

@MainActor final class ResultsView {
    var rows: [String] = []
    var spinner = false
}

enum SearchFailure: Error {
    case offline
}

/// Stands for the network: the first request fails, later ones answer 200 ms after they
/// start (on `scheduler`, so the example runs in virtual time).
final class FlakyListingsAPI: Sendable {
    let scheduler: TestScheduler
    let requests = Atomic(0)

    init(scheduler: TestScheduler) { self.scheduler = scheduler }

    func search(_ text: String) -> Producer<[String], SearchFailure> {
        Producer { input in
            let number = self.requests.add(1, ordering: .relaxed).newValue
            return self.scheduler.schedule(after: .milliseconds(200)) {
                if number == 1 { input.send(failure: .offline) } else { input.send(["Loft by the \(text)"]) }
                input.sendCompleted()
            }
        }
    }
}
// article end
