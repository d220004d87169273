import HomesScreens
import ListingsCategory
import Mediator

extension Mediator {
    /// The name the saved searches' target is registered under.
    package static let savedSearchesTarget = "saved-searches"
}

/// The saved searches' category: the typed calls made to their target. Only the feature's
/// own commands make them today, so it sits in the feature's one module; it moves to a
/// category module of its own once another feature calls it.
@MainActor
extension Mediator {
    /// The saved-searches screen.
    package func savedSearchList() -> CommandOutcome {
        outcome(of: perform(target: Self.savedSearchesTarget, action: "list"))
    }

    /// Saves `query` as a search, under `name` if given: a note saying so, or the problem.
    package func saveSearch(_ query: ListingQuery, name: String? = nil) -> CommandOutcome {
        var params: [String: any Sendable] = ["kind": query.kind.rawValue, "filters": query.filters]
        if let name { params["name"] = name }
        let saved = perform(target: Self.savedSearchesTarget, action: "save", params: MediatorParameters(params))
        if let notFound = saved.notFound { return .error("saved searches are not available: \(notFound.description)") }
        return outcome(of: saved)
    }
}
