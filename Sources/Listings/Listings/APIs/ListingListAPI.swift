import Foundation
import ListingsCategory
import Networking

/// The list API of one kind. Each kind's service names its keys its own way: rentals
/// `id`, `name`, `title`, `price`, ...; new homes `xinfang_id`, ...; resale `esf_id`, ...
package struct ListingListAPI: APIDefinition {
    /// Which service.
    package let kind: ListingKind
    package var serviceName: String { kind.serviceName }
    package var methodName: String { "\(kind.serviceName)/list" }
    package let pageSize: Int? = 8
    package let requestStrategy = RequestStrategy.cancelInFlight
    package let cachePolicy = CachePolicy.memory()

    /// The list API of `kind`.
    package init(kind: ListingKind) {
        self.kind = kind
    }

    package func validateResponse(_ response: JSONValue) -> String? {
        response["items"]?.arrayValue == nil ? "the listing service sent no items" : nil
    }
}
