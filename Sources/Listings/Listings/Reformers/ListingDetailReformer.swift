import Foundation
import Networking
import Signals

/// Turns a detail response into a `ListingDetail`; the kind comes from the call's API.
package struct ListingDetailReformer: APICallReformer {
    /// Creates the reformer.
    package init() {}

    package func reform(_ data: JSONValue, of call: APICall<ListingDetailAPI>) -> ListingDetail? {
        let api = call.definition
        guard let id = data["id"]?.intValue, let name = data["name"]?.stringValue
        else { return nil }
        return ListingDetail(
            kind: api.kind, id: id, name: name, title: data["title"]?.stringValue ?? name,
            price: data["price"]?.intValue ?? 0, area: data["area"]?.intValue ?? 0, rooms: data["rooms"]?.intValue ?? 0,
            district: data["district"]?.stringValue ?? "",
            updatedAt: Date(timeIntervalSince1970: data["updated_at"]?.doubleValue ?? 0)
        )
    }
}
