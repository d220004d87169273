import Foundation
import ListingsCategory
import Networking

/// The list API of one kind. Each kind's service names its keys its own way: rentals
/// `id`, `name`, `title`, `price`, ...; new homes `xinfang_id`, ...; resale `esf_id`, ...
public struct ListingListAPI: APIDefinition {
    /// Which service.
    public let kind: ListingKind
    public var serviceName: String { kind.serviceName }
    public var methodName: String { "\(kind.serviceName)/list" }
    public let pageSize: Int? = 8
    public let requestStrategy = RequestStrategy.cancelInFlight
    public let cachePolicy = CachePolicy.memory()

    /// The list API of `kind`.
    public init(kind: ListingKind) {
        self.kind = kind
    }

    public func validateResponse(_ response: JSONValue) -> String? {
        response["items"]?.arrayValue == nil ? "the listing service sent no items" : nil
    }
}
