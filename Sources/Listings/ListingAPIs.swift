import Networking

/// The kinds of listing, each served by its own API with its own keys.
public enum ListingKind: String, CaseIterable, Sendable {
    case rent, new, resale

    /// The service that serves this kind.
    public var serviceName: String {
        switch self {
        case .rent: return "rentals"
        case .new: return "newhomes"
        case .resale: return "resale"
        }
    }
}

/// The rentals list: keys `id`, `name`, `title`, `price`, ...
public struct RentalListAPI: APIDefinition {
    public let serviceName = "rentals"
    public let methodName = "rentals/list"
    public let pageSize: Int? = 8
    public let requestStrategy = RequestStrategy.cancelInFlight
    public let cachePolicy = CachePolicy.memory()
    public init() {}
    public func validateResponse(_ response: JSONValue) -> String? { ListingListReformer.check(response) }
}

/// The new-homes list: keys `xinfang_id`, `xinfang_name`, ...
public struct NewHomeListAPI: APIDefinition {
    public let serviceName = "newhomes"
    public let methodName = "newhomes/list"
    public let pageSize: Int? = 8
    public let requestStrategy = RequestStrategy.cancelInFlight
    public let cachePolicy = CachePolicy.memory()
    public init() {}
    public func validateResponse(_ response: JSONValue) -> String? { ListingListReformer.check(response) }
}

/// The resale list: keys `esf_id`, `esf_name`, ...
public struct ResaleListAPI: APIDefinition {
    public let serviceName = "resale"
    public let methodName = "resale/list"
    public let pageSize: Int? = 8
    public let requestStrategy = RequestStrategy.cancelInFlight
    public let cachePolicy = CachePolicy.memory()
    public init() {}
    public func validateResponse(_ response: JSONValue) -> String? { ListingListReformer.check(response) }
}
