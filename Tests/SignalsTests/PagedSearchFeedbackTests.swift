import Signals
import SignalsTesting
import Testing

/// RxExample's GitHub paged search as one feedback loop: the search text and a "near the
/// bottom" signal come from the screen, one effect loads the page the state asks for.
@Suite struct PagedSearchFeedbackTests {
    struct Repository: Equatable, Sendable {
        let name: String
    }

    struct Page: Equatable, Sendable {
        let search: String
        let number: Int
    }

    struct Response: Equatable, Sendable {
        let repositories: [Repository]
        let next: Page?
    }

    struct GitHubError: Error, Equatable {}

    struct RepositorySearch: Equatable, Sendable {
        enum Event: Sendable {
            case searchChanged(String)
            case startLoadingNextPage
            case response(Result<Response, GitHubError>)
        }

        var search = ""
        var results: [Repository] = []
        var nextPage: Page?
        var shouldLoadNextPage = true
        var failure: GitHubError?

        /// The page to load now, if any: the query of the loading effect.
        var pageToLoad: Page? { shouldLoadNextPage ? nextPage : nil }
        var isLoading: Bool { pageToLoad != nil }

        static func reduce(_ state: inout Self, _ event: Event) {
            switch event {
            case .searchChanged(let search):
                state = Self(search: search, nextPage: search.isEmpty ? nil : Page(search: search, number: 1))
            case .startLoadingNextPage:
                state.shouldLoadNextPage = true
            case .response(.success(let response)):
                state.results += response.repositories
                state.nextPage = response.next
                state.shouldLoadNextPage = false
            case .response(.failure(let failure)):
                state.failure = failure
                state.shouldLoadNextPage = false
            }
        }
    }

    /// A GitHub that answers after a second of virtual time, three pages per search, and
    /// fails a search for "fail"; it logs each load that starts, lands or ends (landed or
    /// stopped).
    struct GitHub: Sendable {
        let scheduler: TestScheduler
        let log = Locked<[String]>([])

        func repositories(_ page: Page) -> Producer<Response, GitHubError> {
            let name = "\(page.search) \(page.number)"
            let response = Response(
                repositories: [Repository(name: "\(name)a"), Repository(name: "\(name)b")],
                next: page.number < 3 ? Page(search: page.search, number: page.number + 1) : nil)
            let answer: Producer<Response, GitHubError> =
                page.search == "fail" ? Producer(failure: GitHubError()) : Producer(value: response)
            let log = self.log
            return Producer<Void, GitHubError>(value: ()).delay(.seconds(1), on: scheduler).flatMap { _ in answer }
                .on(
                    started: { log.append("load \(name)") }, value: { _ in log.append("landed \(name)") },
                    disposed: { log.append("ended \(name)") })
        }
    }

    @Test func thePagedSearchIsOneDeclaration() {
        let scheduler = TestScheduler()
        let github = GitHub(scheduler: scheduler)
        let (texts, type) = Signal<String>.pipe()
        let (nearBottom, scroll) = Signal<Void>.pipe()

        let search = Property(
            initial: RepositorySearch(),
            reduce: RepositorySearch.reduce,
            feedbacks: Feedback(texts.map(RepositorySearch.Event.searchChanged)),
            Feedback(nearBottom.map(value: .startLoadingNextPage)),
            Feedback(skippingRepeated: { $0.pageToLoad }) { page in
                github.repositories(page).map { .response(.success($0)) }
                    .catch { .init(value: .response(.failure($0))) }
            })

        #expect(!search.value.isLoading)
        type.send("swift")
        #expect(search.value.isLoading)
        scheduler.advance(by: .seconds(1))
        #expect(search.value.results.map(\.name) == ["swift 1a", "swift 1b"])
        #expect(!search.value.isLoading)

        // Near the bottom twice: one load of the next page, not restarted.
        scroll.send(())
        scroll.send(())
        scheduler.advance(by: .milliseconds(500))
        // A new search stops that load and starts from its first page.
        type.send("swiftui")
        scheduler.advance(by: .seconds(1))
        #expect(search.value.search == "swiftui")
        #expect(search.value.results.map(\.name) == ["swiftui 1a", "swiftui 1b"])
        #expect(search.value.nextPage == Page(search: "swiftui", number: 2))

        type.send("fail")
        scheduler.advance(by: .seconds(1))
        #expect(search.value.failure == GitHubError())
        #expect(search.value.results.isEmpty)
        #expect(!search.value.isLoading)

        #expect(
            github.log.value == [
                "load swift 1", "landed swift 1", "ended swift 1",
                "load swift 2", "ended swift 2",
                "load swiftui 1", "landed swiftui 1", "ended swiftui 1",
                "load fail 1", "ended fail 1",
            ])
    }

    @Test func freeingThePagedSearchStopsItsLoad() {
        let scheduler = TestScheduler()
        let github = GitHub(scheduler: scheduler)
        let tracker = ReleaseTracker()
        let (texts, type) = Signal<String>.pipe()
        do {
            let search = Property(
                initial: RepositorySearch(),
                reduce: RepositorySearch.reduce,
                feedbacks: Feedback(texts.map(RepositorySearch.Event.searchChanged)),
                Feedback(skippingRepeated: { $0.pageToLoad }) { page in
                    github.repositories(page).map { .response(.success($0)) }
                        .catch { .init(value: .response(.failure($0))) }
                })
            tracker.track(search, "search")
            type.send("swift")
        }
        tracker.assertAllReleased()
        scheduler.advance(by: .seconds(1))
        #expect(github.log.value == ["load swift 1", "ended swift 1"])
        #expect(!scheduler.hasPendingActions)
    }
}
