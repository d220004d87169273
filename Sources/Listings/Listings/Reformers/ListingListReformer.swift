import Foundation
import Networking

/// Normalises the three list APIs, whose keys differ, into one list of `ListingSummary`.
/// It tells the kinds apart by the call's API; items missing required fields are skipped.
package struct ListingListReformer: APICallReformer {
    /// Creates the reformer.
    package init() {}

    package func reform(_ data: JSONValue, of call: APICall<ListingListAPI>) -> [ListingSummary] {
        let kind = call.definition.kind
        let prefix = kind.keyPrefix
        return (data["items"]?.arrayValue ?? []).compactMap { item in
            guard let id = item[prefix + "id"]?.intValue,
                let name = item[prefix + "name"]?.stringValue,
                let price = item[prefix + "price"]?.intValue
            else { return nil }
            return ListingSummary(
                kind: kind, id: id, name: name,
                title: item[prefix + "title"]?.stringValue ?? name,
                price: price,
                area: item[prefix + "area"]?.intValue ?? 0,
                district: item[prefix + "district"]?.stringValue ?? "",
                updatedAt: Date(timeIntervalSince1970: item[prefix + "updated_at"]?.doubleValue ?? 0),
                latitude: item[prefix + "lat"]?.doubleValue ?? 0,
                longitude: item[prefix + "lng"]?.doubleValue ?? 0
            )
        }
    }
}
