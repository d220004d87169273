import Foundation
import ListingsCategory
import Networking
import Signals

/// Loads one listing's detail.
@MainActor
public final class ListingDetailLogic: APIManagerDelegate, APIManagerParameterSource {
    /// The listing, once loaded.
    public let detail: Property<ListingDetail?>
    /// Whether it is loading.
    public let isLoading: Property<Bool>
    /// What went wrong, if anything.
    public let problem: Property<String?>

    private let detailState = MutableProperty<ListingDetail?>(nil)
    private let loadingState = MutableProperty(false)
    private let problemState = MutableProperty<String?>(nil)
    /// The listing's kind.
    public let kind: ListingKind
    /// The listing's id within its kind.
    public let id: Int
    private let manager: APIManager<ListingDetailAPI>

    /// Logic for listing `id` of `kind`.
    public init(kind: ListingKind, id: Int, engine: APIEngine) {
        detail = Property(detailState)
        isLoading = Property(loadingState)
        problem = Property(problemState)
        manager = APIManager(ListingDetailAPI(kind: kind), engine: engine)
        self.kind = kind
        self.id = id
        manager.delegate = self
        manager.parameterSource = self
    }

    /// Loads the listing (from the cache when fresh).
    public func load() {
        start(ignoringCache: false)
    }

    /// Reloads the listing from the network.
    public func reload() {
        start(ignoringCache: true)
    }

    /// Stops the load in flight, if any, and says so in `problem`.
    public func cancel() {
        guard manager.isLoading else { return }
        manager.cancelAllRequests()
        problemState.value = "cancelled"
    }

    private func start(ignoringCache: Bool) {
        guard manager.loadData(ignoringCache: ignoringCache) else { return }
        loadingState.value = true
        if problemState.value != nil { problemState.value = nil }
    }

    public func parameters(for manager: any APIManaging) -> [String: String] {
        ["id": String(id)]
    }

    public func apiManagerDidSucceed(_ manager: any APIManaging) {
        let detail = manager.fetchData(with: ListingDetailReformer())
        if let detail { detailState.value = detail }
        problemState.value = detail == nil ? "the listing service sent an incomplete listing" : nil
        loadingState.value = false
    }

    public func apiManagerDidFail(_ manager: any APIManaging) {
        // A call replaced by a newer one (or cancelled) is not this screen's problem: the
        // newer call, if any, still counts as loading.
        loadingState.value = manager.isLoading
        guard let result = manager.lastResult, result.kind != .cancelled else { return }
        problemState.value = result.message ?? "the listing could not be loaded"
    }
}
