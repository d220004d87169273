import HomesTesting
import Listings
import ListingsCategory

extension HomesHarness {
    /// The harness with the listing services, as the app registers them.
    init() {
        self.init(
            services: ListingKind.allCases.map { $0.service(baseURL: Self.baseURL, signingSecret: Self.secret) })
    }
}
