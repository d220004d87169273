import Foundation
import Signals
import SignalsTesting
import Testing

/// A GitHub search that answers half a second after a load starts, three pages per search,
/// and logs each load that starts, lands (per answer) or ends (landed or stopped). The
/// search "limit" answers with the rate limit, "broken" fails, and "offline" answers
/// offline first, then with the page once back online, as RxExample's
/// `retryOnBecomesReachable(.failure(.offline))` does.
struct FakeGitHubSearch: Sendable {
    static let frame = Duration.milliseconds(100)
    struct BrokenResponse: Error {}

    let scheduler: TestScheduler
    let log = MutableProperty<[String]>([])

    static func url(_ query: String, page: Int) -> URL {
        URL(string: "https://api.github.com/search/repositories?q=\(query)" + (page > 1 ? "&page=\(page)" : ""))!
    }

    static func repositories(_ query: String, page: Int) -> [Repository] {
        ["a", "b"].map {
            Repository(name: "\(query) \(page)\($0)", url: URL(string: "https://github.com/\(query)/\($0)")!)
        }
    }

    func loadSearchURL(_ url: URL) -> Producer<SearchRepositoriesResponse, any Error> {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = items.first { $0.name == "q" }?.value ?? ""
        let page = items.first { $0.name == "page" }?.value.flatMap { Int($0) } ?? 1
        let found = SearchRepositoriesResponse.success(
            (
                repositories: Self.repositories(query, page: page),
                nextURL: page < 3 ? Self.url(query, page: page + 1) : nil
            ))
        let timeline =
            switch query {
            case "limit": "-----(l|)"
            case "broken": "--#"
            case "offline": "o----(s|)"
            default: "-----(s|)"
            }
        let name = "\(query) \(page)"
        let log = self.log
        return Producer(
            marbles: timeline, values: ["s": found, "l": .failure(.githubLimitReached), "o": .failure(.offline)],
            failures: ["#": BrokenResponse()], frame: Self.frame, on: scheduler
        )
        .on(
            started: { log.modify { $0.append("load \(name)") } },
            value: { _ in log.modify { $0.append("landed \(name)") } },
            disposed: { log.modify { $0.append("end \(name)") } })
    }
}

/// RxExample's paged GitHub search, ported, as its screen uses it. What
/// `PagedSearchFeedbackTests` shows of such a loop (one load for two scrolls, freeing it
/// stops its load) holds here too; these tests pin what RxExample's version does besides.
@Suite struct GitHubSearchPortTests {
    let scheduler = TestScheduler()
    let github: FakeGitHubSearch
    let texts = Signal<String>.pipe()
    let nearBottom = Signal<Void>.pipe()
    let viewModel: GitHubSearchRepositoriesViewModel
    let frame = FakeGitHubSearch.frame

    init() {
        github = FakeGitHubSearch(scheduler: scheduler)
        viewModel = GitHubSearchRepositoriesViewModel(
            searchText: texts.output, nearBottom: nearBottom.output, loadSearchURL: github.loadSearchURL,
            scheduler: scheduler)
    }

    func page(_ query: String, _ page: Int) -> [Repository] {
        FakeGitHubSearch.repositories(query, page: page)
    }

    /// Typing is throttled to one search per 300 ms, and a new search stops the load of the
    /// one before: its page never shows.
    @Test func typingIsThrottledAndANewSearchStopsTheLoadBefore() {
        let repositories = viewModel.repositories.record(on: scheduler)
        scheduler.drive(
            texts.input, with: "abc-------d", values: ["a": "s", "b": "sw", "c": "swi", "d": "swift"], frame: frame)
        scheduler.run()

        #expect(
            github.log.value == [
                "load s 1", "end s 1",
                "load swi 1", "landed swi 1", "end swi 1",
                "load swift 1", "landed swift 1", "end swift 1",
            ])
        repositories.assertMarbles(
            "e-------a-e----b", values: ["e": [], "a": page("swi", 1), "b": page("swift", 1)], frame: frame)
    }

    /// Near the bottom, the next page loads and is appended, until the last; the indicator
    /// runs while a page loads.
    @Test func nearTheBottomTheNextPageLoadsUntilTheLast() {
        let repositories = viewModel.repositories.record(on: scheduler)
        let loading = viewModel.isNetworkActivityIndicatorVisible.record(on: scheduler)
        scheduler.drive(texts.input, with: "a", values: ["a": "swift"], frame: frame)
        scheduler.drive(nearBottom.input, with: "--------x-------x-------x", values: ["x": ()], frame: frame)
        scheduler.run()

        let pages = [page("swift", 1), page("swift", 2), page("swift", 3)]
        repositories.assertMarbles(
            "e----a-------b-------c",
            values: ["e": [], "a": pages[0], "b": pages[0] + pages[1], "c": pages.flatMap { $0 }], frame: frame)
        loading.assertMarbles("(ft)----f--t----f--t----f", values: ["t": true, "f": false], frame: frame)
        #expect(github.log.value.filter { $0.hasPrefix("load") } == ["load swift 1", "load swift 2", "load swift 3"])
        #expect(viewModel.state.value.nextURL == nil)
    }

    /// An empty search asks GitHub nothing and shows no repositories.
    @Test func anEmptySearchAsksNothing() {
        let repositories = viewModel.repositories.record(on: scheduler)
        scheduler.drive(texts.input, with: "a------b", values: ["a": "swift", "b": ""], frame: frame)
        scheduler.run()

        repositories.assertMarbles("e----a-e", values: ["e": [], "a": page("swift", 1)], frame: frame)
        #expect(github.log.value == ["load swift 1", "landed swift 1", "end swift 1"])
    }

    /// GitHub's rate limit shows the alert once and stops paging; a new search keeps the
    /// failure until its page lands.
    @Test func theRateLimitAlertsOnceAndStopsPagingUntilANewSearchLands() {
        let failures = viewModel.state.map(\.failure).record(on: scheduler)
        let alerts = viewModel.limitExceeded.record(on: scheduler)
        scheduler.drive(texts.input, with: "a------b", values: ["a": "limit", "b": "swift"], frame: frame)
        scheduler.drive(nearBottom.input, with: "------x", values: ["x": ()], frame: frame)
        scheduler.run()

        failures.assertMarbles("n----l------n", values: ["n": nil, "l": .githubLimitReached], frame: frame)
        alerts.assertMarbles("-----t", values: ["t": true], frame: frame)
        #expect(
            github.log.value == [
                "load limit 1", "landed limit 1", "end limit 1", "load swift 1", "landed swift 1", "end swift 1",
            ])
    }

    /// A request that fails is a network error (`asSignal(onErrorJustReturn:)`); an answer
    /// "offline" shows the screen offline until the page lands.
    @Test func aFailedRequestIsANetworkErrorAndOfflineLastsUntilThePageLands() {
        let failures = viewModel.state.map(\.failure).record(on: scheduler)
        let offline = viewModel.isOffline.record(on: scheduler)
        let repositories = viewModel.repositories.record(on: scheduler)
        scheduler.drive(texts.input, with: "a------b", values: ["a": "broken", "b": "offline"], frame: frame)
        scheduler.run()

        failures.assertMarbles(
            "n-w----o----n", values: ["n": nil, "w": .networkError, "o": .offline], frame: frame)
        offline.assertMarbles("f------t----f", values: ["t": true, "f": false], frame: frame)
        repositories.assertMarbles("e-----------a", values: ["e": [], "a": page("offline", 1)], frame: frame)
    }
}
