import Foundation
import ViewModels

extension SavedSearchesViewModel {
    /// The rows for `state` at `now`.
    package init(state: SavedSearchesState, now: Date) {
        self.init()
        let kinds = ["rent": "Rentals", "new": "New homes", "resale": "Resale"]
        rows = state.searches.enumerated().map { index, search in
            let filters = search.filterValues.map { values in
                values.isEmpty
                    ? "none" : values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }
            return Row(
                number: "\(index + 1)", name: search.name ?? "-", kind: kinds[search.kind] ?? search.kind,
                filters: filters ?? "(unreadable)", saved: Formatting.age(of: search.savedAt, now: now))
        }
        status = state.problem.map { "! \($0)" } ?? ""
        if !state.searches.isEmpty { footer = "\(state.searches.count) saved - run N, delete N" }
    }
}
