import Foundation
import ListingsCategory
import Networking
import Signals

/// Loads one listing's detail.
@MainActor
package final class ListingDetailLogic {
    /// The listing, whether it loads and what went wrong: one value per change.
    package let state: Property<ListingDetailState>
    /// The listing's kind.
    package let kind: ListingKind
    /// The listing's id within its kind.
    package let id: Int
    private let current = MutableProperty(ListingDetailState())
    /// Whether the listing is loading, and why the last load failed.
    private let activity = Activity<APIResult>()
    private var run: Disposable?
    private let manager: APIManager<ListingDetailAPI>

    /// Logic for listing `id` of `kind`.
    package init(kind: ListingKind, id: Int, engine: APIEngine) {
        state = Property(current)
        manager = APIManager(ListingDetailAPI(kind: kind), engine: engine)
        self.kind = kind
        self.id = id
    }

    /// Loads the listing (from the cache when fresh).
    package func load() {
        start(ignoringCache: false)
    }

    /// Reloads the listing from the network; a load in flight is replaced, which is no
    /// problem.
    package func reload() {
        start(ignoringCache: true)
    }

    /// Stops the load in flight, if any, and says so in `problem`.
    package func cancel() {
        guard current.value.isLoading else { return }
        run?.dispose()
        var next = settled(nil)
        next.problem = "cancelled"
        current.value = next
    }

    private func start(ignoringCache: Bool) {
        run?.dispose()
        let call = manager.producer(parameters: ["id": String(id)], page: .first(ignoringCache: ignoringCache)) {
            $0.fetchData(with: ListingDetailReformer())
        }
        run = activity.track(call).start { [weak self] outcome in
            guard let self else { return }
            current.value = settled(outcome)
        }
        current.value = settled(nil)
    }

    /// The state after `outcome` (nil when none has come), loading and the problem as
    /// the activity says.
    private func settled(_ outcome: Result<ListingDetail?, APIResult>?) -> ListingDetailState {
        var next = current.value
        next.isLoading = activity.isRunning.value
        next.problem = activity.failure.value.map { $0.message ?? "the listing could not be loaded" }
        if case .success(let detail) = outcome {
            next.detail = detail ?? next.detail
            if detail == nil { next.problem = "the listing service sent an incomplete listing" }
        }
        return next
    }
}
