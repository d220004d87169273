import Foundation
import ListingsCategory
import Networking
import Signals

/// The business logic of the listing list: which kind is shown, with which filters, the
/// pages loaded so far, and what is going on. Drives the three list API managers.
@MainActor
package final class ListingLogic {
    /// Everything the list is: one value per change. Derived from the pages and the
    /// activity, the one place that says whether the list loads and what its problem is.
    package let state: Property<ListingState>
    /// The kind, filters and pages loaded: what the logic sets.
    private let pages = MutableProperty(ListingPages())
    /// Whether a page is loading, and why the last one failed.
    private let activity = Activity<APIResult>()
    private var run: Disposable?
    private let managers: [ListingKind: APIManager<ListingListAPI>]

    /// Filters the list APIs understand.
    package static let filterKeys: Set<String> = ["max_price", "min_price", "rooms", "district"]

    /// Logic over `engine`'s services.
    package init(engine: APIEngine) {
        // The activity changes loading and the failure in one batch, and a load starts
        // and lands in one batch with the pages: one change of the state per start or end.
        state = Property.combineLatest(pages, activity.isRunning, activity.failure).map { pages, isRunning, failure in
            let problem = failure.map { $0.message ?? "the listings could not be loaded" }
            return ListingState(
                pages: pages, isLoading: isRunning, problem: problem ?? (pages.wasCancelled ? "cancelled" : nil))
        }
        managers = Dictionary(
            uniqueKeysWithValues: ListingKind.allCases.map {
                ($0, APIManager(ListingListAPI(kind: $0), engine: engine))
            })
    }

    // MARK: - Intents

    /// Shows `kind` from its first page.
    package func show(_ kind: ListingKind) {
        var next = pages.value
        next.kind = kind
        startQuery(next)
    }

    /// Shows `query`'s kind with its filters, and no others, from the first page. Returns
    /// a problem (and changes nothing) for an unknown key or a bad value.
    package func show(_ query: ListingQuery) -> String? {
        if let problem = Self.problem(with: query.filters) { return problem }
        var next = pages.value
        next.kind = query.kind
        next.filters = query.filters
        startQuery(next)
        return nil
    }

    /// Loads the next page; does nothing on the last page or while loading.
    @discardableResult
    package func loadMore() -> Bool {
        let now = state.value
        guard now.hasFirstPage, !now.isLoading, !now.isComplete else { return false }
        load(now.pages, .next)
        return true
    }

    /// Stops the load in flight, if any, and says so in `problem`.
    package func cancel() {
        guard state.value.isLoading else { return }
        withBatchedChanges {
            run?.dispose()
            pages.value.wasCancelled = true
        }
    }

    /// Reloads the first page from the network; a refresh while loading is ignored.
    @discardableResult
    package func refresh() -> Bool {
        guard !state.value.isLoading else { return false }
        var next = pages.value
        next.isComplete = false
        load(next, .first(ignoringCache: true))
        return true
    }

    /// Checks every `(key, value)` pair, then applies them all and reloads once; a load
    /// in flight is cancelled for the new one. Returns a problem (and changes nothing) for
    /// an unknown key or a bad value.
    package func filter(_ pairs: [(key: String, value: String)]) -> String? {
        for (key, value) in pairs {
            if let problem = Self.problem(key: key, value: value) { return problem }
        }
        var next = pages.value
        for (key, value) in pairs { next.filters[key] = value }
        if let problem = Self.problem(with: next.filters) { return problem }
        startQuery(next)
        return nil
    }

    /// What is wrong with `filters` as a whole, if anything: a key or value (the first by
    /// key), or prices no listing could match.
    private static func problem(with filters: [String: String]) -> String? {
        for (key, value) in filters.sorted(by: { $0.key < $1.key }) {
            if let problem = problem(key: key, value: value) { return problem }
        }
        if let minimum = filters["min_price"].flatMap({ Int($0) }),
            let maximum = filters["max_price"].flatMap({ Int($0) }),
            minimum > maximum
        {
            return "min_price \(minimum) is above max_price \(maximum): no listing could match"
        }
        return nil
    }

    /// What is wrong with the filter `key` set to `value`, if anything.
    private static func problem(key: String, value: String) -> String? {
        guard filterKeys.contains(key) else {
            return "unknown filter \(key); use one of \(filterKeys.sorted().joined(separator: ", "))"
        }
        if key != "district", (Int(value) ?? -1) < 0 {
            return "\(key) needs a whole number, not \(value)"
        }
        return nil
    }

    /// Removes every filter and reloads.
    package func clearFilters() {
        var next = pages.value
        next.filters = [:]
        startQuery(next)
    }

    /// A new kind or new filters: the old rows go at once, then the first page loads.
    private func startQuery(_ query: ListingPages) {
        var next = query
        next.listings = []
        next.mapPoints = []
        next.hasFirstPage = false
        next.isComplete = false
        load(next, .first(ignoringCache: false))
    }

    /// Starts loading `page` of `next`'s kind and filters, in place of any load in
    /// flight, and shows `next` as loading: one change.
    private func load(_ next: ListingPages, _ page: APICallPage) {
        guard let manager = managers[next.kind] else { return }
        let call = manager.call(with: next.filters, page: page) { data, call in
            (
                listings: ListingListReformer().reform(data, of: call),
                points: ListingMapReformer().reform(data, of: call), isFirst: call.isFirstPage, isLast: call.isLastPage
            )
        }
        withBatchedChanges {
            run?.dispose()
            var next = next
            next.wasCancelled = false
            pages.value = next
            run = call.start(tracking: activity) { [weak self] in self?.land($0) }
        }
    }

    /// A page arrived (or the load failed, which the activity says): in the batch of the
    /// call's end, so the state changes once.
    private func land(_ outcome: Result<Page, APIResult>) {
        guard case .success(let page) = outcome else { return }
        var next = pages.value
        let before = page.isFirst ? 0 : next.listings.count
        next.listings = page.isFirst ? page.listings : next.listings + page.listings
        next.mapPoints = (page.isFirst ? [] : next.mapPoints) + Self.points(of: page, after: before)
        next.hasFirstPage = true
        next.isComplete = page.isLast
        pages.value = next
    }
}

extension ListingLogic {
    /// A page as it arrived: its items through the list reformer and through the map
    /// reformer, and where it stands.
    private typealias Page = (listings: [ListingSummary], points: [ListingMapPoint], isFirst: Bool, isLast: Bool)

    /// `page`'s points numbered as the list numbers its listings when the page follows
    /// `before` listings; a point of no listing on the page is left out.
    private static func points(of page: Page, after before: Int) -> [ListingMapPoint] {
        let numbers = Dictionary(page.listings.enumerated().map { ($1.id, before + $0 + 1) }) { first, _ in first }
        return page.points.compactMap { point in
            guard let number = numbers[point.id] else { return nil }
            var numbered = point
            numbered.number = number
            return numbered
        }
    }
}
