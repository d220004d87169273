import Foundation
import ListingsCategory
import Networking
import Signals

/// Loads one listing's detail.
@MainActor
package final class ListingDetailLogic {
    /// The listing, whether it loads and what went wrong: one value per change. Derived
    /// from what was loaded and the activity, the one place that says whether the detail
    /// loads and what its problem is.
    package let state: Property<ListingDetailState>
    /// The listing's kind.
    package let kind: ListingKind
    /// The listing's id within its kind.
    package let id: Int
    /// The listing last loaded, and a problem the activity cannot know of (an incomplete
    /// listing, a load stopped by the user), cleared when a load starts.
    private let loaded = MutableProperty(Loaded())
    /// Whether the listing is loading, and why the last load failed.
    private let activity = Activity<APIResult>()
    private var run: Disposable?
    private let manager: APIManager<ListingDetailAPI>

    /// Logic for listing `id` of `kind`.
    package init(kind: ListingKind, id: Int, engine: APIEngine) {
        // The activity changes loading and the failure in one batch, and a load starts
        // and lands in one batch with what it loaded: one change per start or end.
        state = Property.combineLatest(loaded, activity.isRunning, activity.failure).map { loaded, isRunning, failure in
            ListingDetailState(
                detail: loaded.detail, isLoading: isRunning,
                problem: failure.map { $0.message ?? "the listing could not be loaded" } ?? loaded.problem)
        }
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
        guard state.value.isLoading else { return }
        withBatchedChanges {
            run?.dispose()
            loaded.value.problem = "cancelled"
        }
    }

    private func start(ignoringCache: Bool) {
        let call = manager.call(
            with: ["id": String(id)], page: .first(ignoringCache: ignoringCache), reformer: ListingDetailReformer())
        withBatchedChanges {
            run?.dispose()
            loaded.value.problem = nil
            run = call.start(tracking: activity) { [weak self] outcome in
                // A failure is the activity's; a success lands in the batch of the call's end.
                guard let self, case .success(let detail) = outcome else { return }
                loaded.value = Loaded(
                    detail: detail ?? loaded.value.detail,
                    problem: detail == nil ? "the listing service sent an incomplete listing" : nil)
            }
        }
    }

    /// What a load brought: the listing, and the logic's own problem.
    private struct Loaded: Equatable, Sendable {
        var detail: ListingDetail?
        var problem: String?
    }
}
