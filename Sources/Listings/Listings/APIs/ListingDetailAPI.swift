import Foundation
import ListingsCategory
import Networking
import Signals

/// The detail API of one kind of listing: `rentals/detail`, `newhomes/detail`, `resale/detail`.
package struct ListingDetailAPI: APIDefinition {
    /// Which service.
    package let kind: ListingKind
    package var serviceName: String { kind.serviceName }
    package var methodName: String { "\(kind.serviceName)/detail" }
    package let requestStrategy = RequestStrategy.cancelInFlight
    package let cachePolicy = CachePolicy.memory()

    /// The detail API of `kind`.
    package init(kind: ListingKind) {
        self.kind = kind
    }

    package func validateParameters(_ parameters: [String: String]) -> String? {
        guard let text = parameters["id"], let id = Int(text), id > 0 else {
            return "a listing id is a positive number"
        }
        return nil
    }

    package func validateResponse(_ response: JSONValue) -> String? {
        response["id"]?.intValue == nil ? "the listing service sent no listing" : nil
    }
}
