import Foundation
import Networking

/// Listings: each service's pages of listings, and one listing's detail.
extension HomesAPIServer {
    static let listingRoutes = Service.allCases.flatMap { service in
        [
            Route(.any, service.listMethod) { $0.list(service, $1) },
            Route(.any, "\(service.rawValue)/detail") { $0.detail(service, $1) },
        ]
    }

    private func list(_ service: Service, _ parameters: [String: String]) -> HTTPResponse {
        let keys = service.pageKeys
        guard let page = Int(parameters[keys.page] ?? "1"), (1...100_000).contains(page),
            let size = Int(parameters[keys.size] ?? "10"), (1...100).contains(size)
        else {
            return .json(["message": .string("bad paging parameters")], status: 400)
        }
        var items = listings[service] ?? []
        if let text = parameters["max_price"], let maximum = Int(text) { items = items.filter { $0.price <= maximum } }
        if let text = parameters["min_price"], let minimum = Int(text) { items = items.filter { $0.price >= minimum } }
        if let text = parameters["rooms"], let rooms = Int(text) { items = items.filter { $0.rooms == rooms } }
        if let district = parameters["district"], !district.isEmpty {
            let wanted = Self.canonicalDistrict(district).lowercased()
            items = items.filter { $0.district.lowercased() == wanted }
        }
        let start = min(items.count, (page - 1) * size)
        let slice = items[start..<min(items.count, start + size)]
        // `{"items":[...],"total":n}`, members sorted as `JSONValue.encoded()` writes them,
        // from the items encoded at start.
        var body = Data()
        body.reserveCapacity(slice.reduce(32) { $0 + $1.listItem.count + 1 })
        body.append(contentsOf: #"{"items":["#.utf8)
        for (offset, listing) in slice.enumerated() {
            if offset > 0 { body.append(UInt8(ascii: ",")) }
            body.append(listing.listItem)
        }
        body.append(contentsOf: #"],"total":"#.utf8)
        body.append(JSONValue.number(Double(items.count)).encoded())
        body.append(UInt8(ascii: "}"))
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }

    /// `listing` as an item of a list, its keys with the service's `prefix`.
    static func listItem(_ listing: Listing, prefix: String) -> JSONValue {
        var object: JSONObject = [
            prefix + "id": .number(Double(listing.id)),
            prefix + "name": .string(listing.name),
            prefix + "title": .string(listing.title),
            prefix + "price": .number(Double(listing.price)),
            prefix + "area": .number(Double(listing.area)),
            prefix + "district": .string(listing.district),
            prefix + "lat": .number(listing.latitude),
            prefix + "lng": .number(listing.longitude),
            prefix + "updated_at": .number(Double(listing.updatedAt)),
        ]
        object[prefix + "rooms"] = .number(Double(listing.rooms))
        return .object(object)
    }

    private func detail(_ service: Service, _ parameters: [String: String]) -> HTTPResponse {
        guard let id = Int(parameters["id"] ?? ""), let listing = listings[service]?.first(where: { $0.id == id })
        else {
            return .json(["message": "no such listing"], status: 404)
        }
        return .json([
            "id": .number(Double(listing.id)), "name": .string(listing.name), "title": .string(listing.title),
            "price": .number(Double(listing.price)), "area": .number(Double(listing.area)),
            "rooms": .number(Double(listing.rooms)), "district": .string(listing.district),
            "updated_at": .number(Double(listing.updatedAt)),
        ])
    }
}
