import Networking

/// The second view of the same list APIs: the points of a page, for the map. It reads the
/// same raw data as `ListingListReformer`, with the same per-service keys.
package struct ListingMapReformer: APICallReformer {
    /// Creates the reformer.
    package init() {}

    package func reform(_ data: JSONValue, of call: APICall<ListingListAPI>) -> [ListingMapPoint] {
        let prefix = call.definition.kind.keyPrefix
        return (data["items"]?.arrayValue ?? []).compactMap { item in
            guard let id = item[prefix + "id"]?.intValue, let name = item[prefix + "name"]?.stringValue,
                let latitude = item[prefix + "lat"]?.doubleValue, (-90...90).contains(latitude),
                let longitude = item[prefix + "lng"]?.doubleValue, (-180...180).contains(longitude)
            else { return nil }
            return ListingMapPoint(id: id, name: name, latitude: latitude, longitude: longitude)
        }
    }
}
