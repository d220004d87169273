import Foundation
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
        guard let text = parameters["id"], let id = Int(text), id > 0 else { return "a listing id is a positive number" }
        return nil
    }

    public func validateResponse(_ response: JSONValue) -> String? {
        response["id"]?.intValue == nil ? "the listing service sent no listing" : nil
    }
}

/// Everything about one listing.
public struct ListingDetail: Equatable, Sendable {
    /// Which service it came from.
    public let kind: ListingKind
    /// Its id within that service.
    public let id: Int
    /// Its name.
    public let name: String
    /// A one-line description.
    public let title: String
    /// Monthly rent or total price, in yuan.
    public let price: Int
    /// Floor area in square metres.
    public let area: Int
    /// Number of rooms.
    public let rooms: Int
    /// The district.
    public let district: String
    /// When it last changed.
    public let updatedAt: Date

    /// Creates a detail.
    public init(kind: ListingKind, id: Int, name: String, title: String, price: Int, area: Int, rooms: Int,
                district: String, updatedAt: Date) {
        self.kind = kind
        self.id = id
        self.name = name
        self.title = title
        self.price = price
        self.area = area
        self.rooms = rooms
        self.district = district
        self.updatedAt = updatedAt
    }
}

/// Turns a detail response into a `ListingDetail`; the kind comes from the manager's API.
public struct ListingDetailReformer: APIReformer {
    /// Creates the reformer.
    public init() {}

    public func reform(_ data: JSONValue, from manager: any APIManaging) -> ListingDetail? {
        guard let api = manager.definition as? ListingDetailAPI, let id = data["id"]?.intValue,
              let name = data["name"]?.stringValue else { return nil }
        return ListingDetail(
            kind: api.kind, id: id, name: name, title: data["title"]?.stringValue ?? name,
            price: data["price"]?.intValue ?? 0, area: data["area"]?.intValue ?? 0, rooms: data["rooms"]?.intValue ?? 0,
            district: data["district"]?.stringValue ?? "",
            updatedAt: Date(timeIntervalSince1970: data["updated_at"]?.doubleValue ?? 0)
        )
    }
}

/// Loads one listing's detail.
@MainActor
public final class ListingDetailLogic: APIManagerDelegate, APIManagerParameterSource {
    /// The listing, once loaded.
    public let detail: Property<ListingDetail?>
    /// Whether it is loading.
    public let isLoading: Property<Bool>
    /// What went wrong, if anything.
    public let problem: Property<String?>

    private let detailState = MutableProperty<ListingDetail?>(nil)
    private let loadingState = MutableProperty(false)
    private let problemState = MutableProperty<String?>(nil)
    /// The listing's kind.
    public let kind: ListingKind
    /// The listing's id within its kind.
    public let id: Int
    private let manager: APIManager<ListingDetailAPI>

    /// Logic for listing `id` of `kind`.
    public init(kind: ListingKind, id: Int, engine: APIEngine) {
        detail = Property(detailState)
        isLoading = Property(loadingState)
        problem = Property(problemState)
        manager = APIManager(ListingDetailAPI(kind: kind), engine: engine)
        self.kind = kind
        self.id = id
        manager.delegate = self
        manager.parameterSource = self
    }

    /// Loads the listing (from the cache when fresh).
    public func load() {
        start(ignoringCache: false)
    }

    /// Reloads the listing from the network.
    public func reload() {
        start(ignoringCache: true)
    }

    /// Stops the load in flight, if any, and says so in `problem`.
    public func cancel() {
        guard manager.isLoading else { return }
        manager.cancelAllRequests()
        problemState.value = "cancelled"
    }

    private func start(ignoringCache: Bool) {
        guard manager.loadData(ignoringCache: ignoringCache) else { return }
        loadingState.value = true
        if problemState.value != nil { problemState.value = nil }
    }

    public func parameters(for manager: any APIManaging) -> [String: String] {
        ["id": String(id)]
    }

    public func apiManagerDidSucceed(_ manager: any APIManaging) {
        let detail = manager.fetchData(with: ListingDetailReformer())
        if let detail { detailState.value = detail }
        problemState.value = detail == nil ? "the listing service sent an incomplete listing" : nil
        loadingState.value = false
    }

    public func apiManagerDidFail(_ manager: any APIManaging) {
        // A call replaced by a newer one (or cancelled) is not this screen's problem: the
        // newer call, if any, still counts as loading.
        loadingState.value = manager.isLoading
        guard let result = manager.lastResult, result.kind != .cancelled else { return }
        problemState.value = result.message ?? "the listing could not be loaded"
    }
}
