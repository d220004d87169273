import Foundation
import Signals

// RxExample's Wikipedia search: the chain `WikipediaSearchViewController` builds from the
// search bar to the results, the API it calls (`WikipediaAPI.swift`) and the reachability
// service its retry waits for (`ReachabilityService.swift`), ported.

struct WikipediaSearchResult: Equatable, Sendable {
    let title: String
    let description: String
    let url: URL
}

struct WikipediaAPIError: Error, Equatable {}

protocol WikipediaAPI: Sendable {
    func getSearchResults(_ query: String) -> Producer<[WikipediaSearchResult], WikipediaAPIError>
    /// Whether a request is in flight (`DefaultWikipediaAPI.loadingWikipediaData`).
    var loadingWikipediaData: Property<Bool> { get }
}

enum ReachabilityStatus: Equatable, Sendable {
    case reachable(viaWiFi: Bool)
    case unreachable

    var reachable: Bool {
        if case .reachable = self { true } else { false }
    }
}

protocol ReachabilityService: Sendable {
    var reachability: Property<ReachabilityStatus> { get }
}

extension Producer {
    /// RxExample's own operator, ported: after a failure, sends `valueOnFailure`, waits
    /// until the network becomes reachable, then runs again (as often as it takes).
    func retryOnBecomesReachable(_ valueOnFailure: Value, reachabilityService: ReachabilityService) -> Self {
        self.catch { failure in
            Producer<ReachabilityStatus, Failure>(reachabilityService.reachability.signal.filter(\.reachable))
                .flatMap { _ in Producer<Value, Failure>(failure: failure) }
                .prefix(value: valueOnFailure)
        }
        .retry(upTo: .max)
    }
}

/// What `WikipediaSearchViewController` binds to its views. The scheduler of the throttle
/// is a dependency, the main scheduler by default, where the driver hard-coded it.
final class WikipediaSearchModel: Sendable {
    let results: Signal<[WikipediaSearchResult]>
    let isEmptyViewHidden: Signal<Bool>
    let isNetworkActivityIndicatorVisible: Property<Bool>

    init(
        searchText: Property<String>,
        api: WikipediaAPI,
        reachabilityService: ReachabilityService,
        loadingImage: Property<Bool>,
        scheduler: Scheduler = MainScheduler()
    ) {
        results = searchText.currentAndChanges
            .throttle(.milliseconds(300), on: scheduler)
            .skipRepeats()
            .flatMapLatest { query in
                api.getSearchResults(query)
                    .retry(upTo: 2)
                    .retryOnBecomesReachable([], reachabilityService: reachabilityService)
                    .prefix(value: []) // clears results on new search term
                    .replaceError(with: [])
            }
            .share(replay: 1)

        isEmptyViewHidden = results.map { !$0.isEmpty }

        isNetworkActivityIndicatorVisible = Property.combineLatest(api.loadingWikipediaData, loadingImage)
            .map { $0 || $1 }
    }
}
