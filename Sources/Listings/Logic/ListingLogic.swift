import Foundation
import ListingsCategory
import Networking
import Signals

/// The business logic of the listing list: which kind is shown, with which filters, the
/// pages loaded so far, and what is going on. Drives the three list API managers.
@MainActor
public final class ListingLogic: APIManagerDelegate, APIManagerParameterSource {
    /// The listings loaded so far, page after page.
    public let listings: Property<[ListingSummary]>
    /// The kind shown.
    public let kind: Property<ListingKind>
    /// The filters applied (API parameter name to value).
    public let filters: Property<[String: String]>
    /// Whether a page is loading.
    public let isLoading: Property<Bool>
    /// Whether every page has been loaded.
    public let isComplete: Property<Bool>
    /// The last problem, for the user; nil when all is well.
    public let problem: Property<String?>

    private let listingsState = MutableProperty<[ListingSummary]>([])
    private let kindState = MutableProperty(ListingKind.rent)
    private let filtersState = MutableProperty<[String: String]>([:])
    private let loadingState = MutableProperty(false)
    private let completeState = MutableProperty(false)
    private let problemState = MutableProperty<String?>(nil)
    /// Whether the first page of the current kind and filters has arrived; `loadMore`
    /// waits for it, so pages of different queries never mix.
    private var hasFirstPage = false
    private let managers: [ListingKind: APIManager<ListingListAPI>]

    /// Filters the list APIs understand.
    public static let filterKeys: Set<String> = ["max_price", "min_price", "rooms", "district"]

    /// Logic over `engine`'s services.
    public init(engine: APIEngine) {
        listings = Property(listingsState)
        kind = Property(kindState)
        filters = Property(filtersState)
        isLoading = Property(loadingState)
        isComplete = Property(completeState)
        problem = Property(problemState)
        managers = Dictionary(
            uniqueKeysWithValues: ListingKind.allCases.map {
                ($0, APIManager(ListingListAPI(kind: $0), engine: engine))
            })
        for manager in managers.values {
            manager.delegate = self
            manager.parameterSource = self
        }
    }

    // MARK: - Intents

    /// Shows `kind` from its first page.
    public func show(_ kind: ListingKind) {
        if kind != kindState.value { managers[kindState.value]?.cancelAllRequests() }
        kindState.value = kind
        startQuery()
    }

    /// Loads the next page; does nothing on the last page or while loading.
    @discardableResult
    public func loadMore() -> Bool {
        guard hasFirstPage, !loadingState.value, !completeState.value else { return false }
        return load(firstPage: false, fresh: false)
    }

    /// Stops the load in flight, if any, and says so in `problem`.
    public func cancel() {
        guard loadingState.value else { return }
        managers[kindState.value]?.cancelAllRequests()
        problemState.value = "cancelled"
    }

    /// Reloads the first page from the network; a refresh while loading is ignored.
    @discardableResult
    public func refresh() -> Bool {
        guard !loadingState.value else { return false }
        return load(firstPage: true, fresh: true)
    }

    /// Checks every `(key, value)` pair, then applies them all and reloads once; a load
    /// in flight is cancelled for the new one. Returns a problem (and changes nothing) for
    /// an unknown key or a bad value.
    public func filter(_ pairs: [(key: String, value: String)]) -> String? {
        for (key, value) in pairs {
            guard Self.filterKeys.contains(key) else {
                return "unknown filter \(key); use one of \(Self.filterKeys.sorted().joined(separator: ", "))"
            }
            if key != "district", (Int(value) ?? -1) < 0 {
                return "\(key) needs a whole number, not \(value)"
            }
        }
        var filters = filtersState.value
        for (key, value) in pairs { filters[key] = value }
        if let minimum = filters["min_price"].flatMap({ Int($0) }),
            let maximum = filters["max_price"].flatMap({ Int($0) }),
            minimum > maximum
        {
            return "min_price \(minimum) is above max_price \(maximum): no listing could match"
        }
        filtersState.value = filters
        startQuery()
        return nil
    }

    /// Removes every filter and reloads.
    public func clearFilters() {
        filtersState.value = [:]
        startQuery()
    }

    /// A new kind or new filters: the old rows go at once, then the first page loads.
    private func startQuery() {
        hasFirstPage = false
        if !listingsState.value.isEmpty { listingsState.value = [] }
        set(completeState, false)
        load(firstPage: true, fresh: false)
    }

    @discardableResult
    private func load(firstPage: Bool, fresh: Bool) -> Bool {
        guard let manager = managers[kindState.value] else { return false }
        let started = firstPage ? manager.loadData(ignoringCache: fresh) : manager.loadNextPage()
        if started {
            if firstPage { set(completeState, false) }
            set(loadingState, true)
            set(problemState, nil)
        }
        return started
    }

    /// Sets `property` only when the value differs, so observers hear of real changes.
    private func set<Value: Equatable>(_ property: MutableProperty<Value>, _ value: Value) {
        if property.value != value { property.value = value }
    }

    // MARK: - APIManagerParameterSource

    public func parameters(for manager: any APIManaging) -> [String: String] {
        filtersState.value
    }

    // MARK: - APIManagerDelegate

    public func apiManagerDidSucceed(_ manager: any APIManaging) {
        guard isCurrent(manager) else { return }
        let page = manager.fetchData(with: ListingListReformer())
        if manager.isFirstPage { hasFirstPage = true }
        listingsState.value = manager.isFirstPage ? page : listingsState.value + page
        set(completeState, manager.isLastPage)
        set(loadingState, manager.isLoading)
    }

    public func apiManagerDidFail(_ manager: any APIManaging) {
        guard isCurrent(manager) else { return }
        set(loadingState, manager.isLoading)
        guard let result = manager.lastResult, result.kind != .cancelled else { return }
        set(problemState, result.message ?? "the listings could not be loaded")
    }

    /// The manager of the kind shown.
    var currentManager: (any APIManaging)? {
        managers[kindState.value]
    }

    private func isCurrent(_ manager: any APIManaging) -> Bool {
        managers[kindState.value] === manager
    }
}

extension ListingLogic {
    /// The points of the page last loaded, through the map reformer, numbered as the
    /// list numbers them.
    public func mapPoints() -> [ListingMapPoint] {
        let numbers = Dictionary(listings.value.enumerated().map { ($1.id, $0 + 1) }) { first, _ in first }
        return (currentManager?.fetchData(with: ListingMapReformer()) ?? []).map { point in
            var numbered = point
            numbered.number = numbers[point.id] ?? 0
            return numbered
        }
    }
}
