import Foundation
import Signals

// RxExample's GitHub repository search (`GitHubSearchRepositories.swift`, an RxFeedback
// system, and the wiring of `GitHubSearchRepositoriesViewController`), ported: the system
// is `Property(initial:reduce:feedbacks:)`.

struct Repository: Equatable, Sendable {
    var name: String
    var url: URL
}

enum GitHubServiceError: Error, Equatable {
    case offline
    case githubLimitReached
    case networkError
}

typealias SearchRepositoriesResponse = Result<(repositories: [Repository], nextURL: URL?), GitHubServiceError>

enum GitHubCommand: Sendable {
    case changeSearch(text: String)
    case loadMoreItems
    case gitHubResponseReceived(SearchRepositoriesResponse)
}

/// The state: `Equatable`, so the machine and what is mapped from it notify only real
/// changes, where RxExample wraps the repositories in a `Version` to spare the table.
struct GitHubSearchRepositoriesState: Equatable, Sendable {
    var searchText: String
    var shouldLoadNextPage: Bool
    var repositories: [Repository]
    var nextURL: URL?
    var failure: GitHubServiceError?

    init(searchText: String) {
        self.searchText = searchText
        shouldLoadNextPage = true
        repositories = []
        let escaped = searchText.addingPercentEncoding(withAllowedCharacters: .urlHostAllowed) ?? ""
        nextURL = URL(string: "https://api.github.com/search/repositories?q=\(escaped)")
        failure = nil
    }

    static let initial = GitHubSearchRepositoriesState(searchText: "")

    static func reduce(state: inout GitHubSearchRepositoriesState, command: GitHubCommand) {
        switch command {
        case .changeSearch(let text):
            let failure = state.failure
            state = GitHubSearchRepositoriesState(searchText: text)
            state.failure = failure
        case .gitHubResponseReceived(.success(let (repositories, nextURL))):
            state.repositories += repositories
            state.shouldLoadNextPage = false
            state.nextURL = nextURL
            state.failure = nil
        case .gitHubResponseReceived(.failure(let error)):
            state.failure = error
        case .loadMoreItems:
            if state.failure == nil {
                state.shouldLoadNextPage = true
            }
        }
    }

    var isOffline: Bool { failure == .offline }
    var isLimitExceeded: Bool { failure == .githubLimitReached }
}

struct GithubQuery: Equatable {
    let searchText: String
    let shouldLoadNextPage: Bool
    let nextURL: URL?
}

/// RxExample's `githubSearchRepositories`; its `loadNextPageTrigger` is a function of the
/// states, as there, made a `Feedback` of the states.
func githubSearchRepositories(
    searchText: Signal<String>,
    loadNextPageTrigger: @escaping @Sendable (Signal<GitHubSearchRepositoriesState>) -> Signal<Void>,
    performSearch: @escaping @Sendable (URL) -> Producer<SearchRepositoriesResponse, any Error>
) -> Property<GitHubSearchRepositoriesState> {
    let searchPerformerFeedback = Feedback<GitHubSearchRepositoriesState, GitHubCommand>(
        skippingRepeated: { state in
            GithubQuery(
                searchText: state.searchText, shouldLoadNextPage: state.shouldLoadNextPage, nextURL: state.nextURL)
        },
        effects: { query in
            if !query.shouldLoadNextPage {
                return .empty
            }
            if query.searchText.isEmpty {
                return Producer(value: .gitHubResponseReceived(.success((repositories: [], nextURL: nil))))
            }
            guard let nextURL = query.nextURL else {
                return .empty
            }
            return performSearch(nextURL)
                .replaceError(with: .failure(.networkError))
                .map(GitHubCommand.gitHubResponseReceived)
        })

    return Property(
        initial: GitHubSearchRepositoriesState.initial,
        reduce: GitHubSearchRepositoriesState.reduce,
        feedbacks: searchPerformerFeedback,
        Feedback { states in loadNextPageTrigger(states).map(value: .loadMoreItems) },
        Feedback(searchText.map(GitHubCommand.changeSearch)))
}

/// What `GitHubSearchRepositoriesViewController.viewDidLoad` builds for its views.
final class GitHubSearchRepositoriesViewModel: Sendable {
    let state: Property<GitHubSearchRepositoriesState>
    let isOffline: Property<Bool>
    let repositories: Property<[Repository]>
    /// Each time GitHub's limit is newly exceeded: the alert.
    let limitExceeded: Signal<Bool>
    let isNetworkActivityIndicatorVisible: Property<Bool>

    init(
        searchText: Signal<String>,
        nearBottom: Signal<Void>,
        loadSearchURL: @escaping @Sendable (URL) -> Producer<SearchRepositoriesResponse, any Error>,
        scheduler: Scheduler = MainScheduler()
    ) {
        let activityIndicator = Activity<any Error>()
        state = githubSearchRepositories(
            searchText: searchText.throttle(.milliseconds(300), on: scheduler),
            loadNextPageTrigger: { states in
                nearBottom.withLatest(from: states) { _, state in state }
                    .filter { !$0.shouldLoadNextPage }
                    .map(value: ())
            },
            performSearch: { url in activityIndicator.track(loadSearchURL(url)) })
        isOffline = state.map(\.isOffline)
        repositories = state.map(\.repositories)
        limitExceeded = state.map(\.isLimitExceeded).signal.filter { $0 }
        isNetworkActivityIndicatorVisible = activityIndicator.isRunning
    }
}
