import Foundation
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

    /// The list of `query`'s listings, its first page loading; filters the listings do
    /// not take are said on a notice.
    package func listingList(_ query: ListingQuery) -> CommandOutcome {
        var params: [String: any Sendable] = query.filters
        params["kind"] = query.kind.rawValue
        return outcome(of: perform(target: Self.listingsTarget, action: "list", params: MediatorParameters(params)))
    }

    /// The link that opens `query`'s list, its filters in the order of their keys:
    /// `homes://listing/list?kind=rent&rooms=2`.
    package func link(to query: ListingQuery) -> String {
        var components = URLComponents()
        components.scheme = scheme
        components.host = Self.listingsTarget
        components.path = "/list"
        components.queryItems =
            [URLQueryItem(name: "kind", value: query.kind.rawValue)]
            + query.filters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.string ?? "\(scheme)://\(Self.listingsTarget)/list?kind=\(query.kind.rawValue)"
    }

    /// The query of the listing list `screen` shows; nil for any other screen.
    package func listingQuery(shownOn screen: any Screen) -> ListingQuery? {
        guard let link = screen.link, let components = URLComponents(string: link),
            components.scheme == scheme, components.host == Self.listingsTarget, components.path == "/list"
        else { return nil }
        var filters: [String: String] = [:]
        var kind: ListingKind?
        for item in components.queryItems ?? [] {
            if item.name == "kind" {
                kind = item.value.flatMap(ListingKind.init(rawValue:))
            } else {
                filters[item.name] = item.value ?? ""
            }
        }
        return kind.map { ListingQuery(kind: $0, filters: filters) }
    }
}
