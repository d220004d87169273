import Foundation
import Signals
import SignalsTesting
import Testing

/// A Wikipedia that answers 400 ms after a search starts, and the network it is reached
/// through. It logs each attempt of each search; "flaky" fails its first two attempts,
/// and "down" fails while the network is unreachable.
///
/// RxExample's marble mocks play the next of several timelines at each subscription
/// (`"-#|-#|--r"`), as `Producer(marbles: ["-#", "-#", "--r"])` does; here whether an
/// attempt fails depends on the network at that moment too, so the fake decides each
/// attempt itself and logs it.
struct FakeWikipedia: WikipediaAPI, ReachabilityService {
    static let frame = Duration.milliseconds(100)

    let scheduler: TestScheduler
    let network = MutableProperty(ReachabilityStatus.reachable(viaWiFi: true))
    let log = MutableProperty<[String]>([])
    let attempts = MutableProperty<[String: Int]>([:])
    let activity = Activity<WikipediaAPIError>()

    var reachability: Property<ReachabilityStatus> { network }
    var loadingWikipediaData: Property<Bool> { activity.isRunning }

    static func results(_ query: String) -> [WikipediaSearchResult] {
        guard !query.isEmpty else { return [] }
        let url = URL(string: "https://en.wikipedia.org/wiki/\(query)")!
        return [WikipediaSearchResult(title: query.capitalized, description: "\(query), the article", url: url)]
    }

    func getSearchResults(_ query: String) -> Producer<[WikipediaSearchResult], WikipediaAPIError> {
        let (scheduler, network, log, attempts) = (self.scheduler, self.network, self.log, self.attempts)
        return activity.track(
            Producer { input in
                let attempt = attempts.modify { counts in
                    counts[query, default: 0] += 1
                    return counts[query, default: 0]
                }
                log.modify { $0.append("search \(query) #\(attempt)") }
                let fails = (query == "flaky" && attempt < 3) || (query == "down" && !network.value.reachable)
                return Producer(
                    marbles: fails ? "-#" : "----(r|)", values: ["r": Self.results(query)],
                    failures: ["#": WikipediaAPIError()], frame: Self.frame, on: scheduler
                )
                .start(
                    value: { input.send($0) }, failed: { input.send(failure: $0) }, completed: { input.sendCompleted() }
                )
            })
    }
}

/// RxExample's Wikipedia search chain, ported: what its view controller shows as the user
/// types (TestingTimelinesArticleTests has the debounced variant and its failures).
@Suite struct WikipediaSearchPortTests {
    let scheduler = TestScheduler()
    let wikipedia: FakeWikipedia
    let frame = FakeWikipedia.frame

    init() {
        wikipedia = FakeWikipedia(scheduler: scheduler)
    }

    func model(searchingFor text: String, loadingImage: Property<Bool> = Property(value: false)) -> (
        MutableProperty<String>, WikipediaSearchModel
    ) {
        let searchText = MutableProperty(text)
        let model = WikipediaSearchModel(
            searchText: searchText, api: wikipedia, reachabilityService: wikipedia, loadingImage: loadingImage,
            scheduler: scheduler)
        return (searchText, model)
    }

    /// Typing is throttled, the same text is not searched again, a new search stops the one
    /// before and clears the results until its own land.
    @Test func typingIsThrottledRepeatsAreSkippedAndANewSearchReplacesTheOneBefore() {
        let loadingImage = MutableProperty(false)
        let (searchText, model) = model(searchingFor: "", loadingImage: loadingImage)
        let results = model.results.record(on: scheduler)
        let emptyViewHidden = model.isEmptyViewHidden.record(on: scheduler)
        let spinner = model.isNetworkActivityIndicatorVisible.record(on: scheduler)
        scheduler.drive(searchText, with: "-ab------bc", values: ["a": "sw", "b": "swift", "c": "lake"], frame: frame)
        scheduler.drive(loadingImage, with: "------------------tf", values: ["t": true, "f": false], frame: frame)
        withExtendedLifetime((searchText, loadingImage)) { scheduler.run() }

        #expect(wikipedia.log.value == ["search  #1", "search swift #1", "search lake #1"])
        results.assertMarbles(
            "e--e---s----e---l",
            values: ["e": [], "s": FakeWikipedia.results("swift"), "l": FakeWikipedia.results("lake")], frame: frame)
        emptyViewHidden.assertMarbles("f--f---t----f---t", values: ["t": true, "f": false], frame: frame)
        // At frame 3 the replaced search ends before the next starts, so the spinner blinks
        // off and on in the same instant, as with RxSwift's `flatMapLatest` (its
        // `SwitchSink` disposes the old inner before subscribing the new one).
        spinner.assertMarbles("(ft)--(ft)---f----t---f-tf", values: ["t": true, "f": false], frame: frame)
    }

    /// `retry(3)`: a search that fails twice is tried a third time, and its results show.
    @Test func aSearchIsTriedThreeTimes() {
        let (searchText, model) = model(searchingFor: "flaky")
        let results = model.results.record(on: scheduler)
        // Kept while the screen is up: a freed search field completes its text, and the results.
        withExtendedLifetime(searchText) { scheduler.run() }

        #expect(wikipedia.log.value == ["search flaky #1", "search flaky #2", "search flaky #3"])
        results.assertMarbles("e-----r", values: ["e": [], "r": FakeWikipedia.results("flaky")], frame: frame)
    }

    /// After three failures the results are empty, and the search runs again once the
    /// network is back.
    @Test func aSearchThatFailsRunsAgainWhenTheNetworkIsBack() {
        wikipedia.network.value = .unreachable
        let (searchText, model) = model(searchingFor: "down")
        let results = model.results.record(on: scheduler)
        scheduler.drive(wikipedia.network, with: "-----r", values: ["r": .reachable(viaWiFi: false)], frame: frame)
        withExtendedLifetime(searchText) { scheduler.run() }

        #expect(wikipedia.log.value == ["search down #1", "search down #2", "search down #3", "search down #4"])
        results.assertMarbles("e--e-----r", values: ["e": [], "r": FakeWikipedia.results("down")], frame: frame)
    }

    /// A search waiting for the network is dropped by the next one: the network coming
    /// back does not run it again.
    @Test func aNewSearchDropsTheOneWaitingForTheNetwork() {
        wikipedia.network.value = .unreachable
        let (searchText, model) = model(searchingFor: "down")
        let results = model.results.record(on: scheduler)
        scheduler.drive(searchText, with: "----l", values: ["l": "lake"], frame: frame)
        scheduler.drive(wikipedia.network, with: "------r", values: ["r": .reachable(viaWiFi: true)], frame: frame)
        withExtendedLifetime(searchText) { scheduler.run() }

        #expect(wikipedia.log.value == ["search down #1", "search down #2", "search down #3", "search lake #1"])
        results.assertMarbles("e--ee---l", values: ["e": [], "l": FakeWikipedia.results("lake")], frame: frame)
    }
}
