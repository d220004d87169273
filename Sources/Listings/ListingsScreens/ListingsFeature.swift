import FeatureKit
import HomesScreens
import Listings
import ListingsCategory
import Mediator
import Networking

/// The listings as the app composes them: a service per kind, the target that builds
/// the list and detail screens with their logic, and the app's first screen, the rentals.
@MainActor
package struct ListingsFeature: Feature {
    /// The feature.
    package init() {}

    package func services(_ api: APISettings) -> [APIService] {
        ListingKind.allCases.map {
            $0.service(
                baseURL: api.baseURL, signatureRejectedCodes: api.signatureRejectedCodes,
                signingSecret: api.signingSecret)
        }
    }

    package func register(in mediator: Mediator, with context: FeatureContext) {
        mediator.register(target: Mediator.listingsTarget) { [unowned mediator] in
            ListingTarget(engine: context.engine, mediator: mediator, now: context.now)
        }
    }

    package func home(_ mediator: Mediator) -> CommandOutcome? {
        mediator.listingList(ListingQuery(kind: .rent))
    }
}
