import HomesScreens
import Mediator

/// The listings' category: the typed calls other features and the app make to the
/// listings' target, so no caller spells its name, its actions or its parameters.
extension Mediator {
    /// The name the listings' target is registered under.
    package static let listingsTarget = "listing"
}

@MainActor
extension Mediator {
    /// The detail screen of the listing `id` of `kind`.
    package func listingDetail(kind: ListingKind, id: Int) -> CommandOutcome {
        outcome(of: perform(target: Self.listingsTarget, action: "detail", params: ["kind": kind.rawValue, "id": id]))
    }
}
