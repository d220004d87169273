import Foundation
import ListingsCategory
import Networking
import Signals

/// The detail API of one kind of listing: `rentals/detail`, `newhomes/detail`, `resale/detail`.
public struct ListingDetailAPI: APIDefinition {
    /// Which service.
    public let kind: ListingKind
    public var serviceName: String { kind.serviceName }
    public var methodName: String { "\(kind.serviceName)/detail" }
    public let requestStrategy = RequestStrategy.cancelInFlight
    public let cachePolicy = CachePolicy.memory()

    /// The detail API of `kind`.
    public init(kind: ListingKind) {
        self.kind = kind
    }

    public func validateParameters(_ parameters: [String: String]) -> String? {
        guard let text = parameters["id"], let id = Int(text), id > 0 else {
            return "a listing id is a positive number"
        }
        return nil
    }

    public func validateResponse(_ response: JSONValue) -> String? {
        response["id"]?.intValue == nil ? "the listing service sent no listing" : nil
    }
}
