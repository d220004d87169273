import Foundation
import ListingsCategory
import Networking

/// Each kind's service and key style: the one description of them, for the app and its
/// tests alike.
extension ListingKind {
    /// The service that serves this kind.
    package var serviceName: String {
        switch self {
        case .rent: return "rentals"
        case .new: return "newhomes"
        case .resale: return "resale"
        }
    }

    /// What this kind's service puts before every key of a list item, and of its paging
    /// parameters.
    package var keyPrefix: String {
        switch self {
        case .rent: return ""
        case .new: return "xinfang_"
        case .resale: return "esf_"
        }
    }

    /// The names this kind's service gives the page number and the page size.
    package var pageKeys: (page: String, size: String) {
        (keyPrefix + "page", keyPrefix + "page_size")
    }

    /// This kind's service at `baseURL`, with its own key style: the one description of
    /// it, for the app and its tests alike.
    package func service(baseURL: URL, signatureRejectedCodes: Set<Int> = [], signingSecret: [UInt8]? = nil)
        -> APIService
    {
        APIService(
            name: serviceName, baseURL: baseURL, pageKey: pageKeys.page, pageSizeKey: pageKeys.size,
            signatureRejectedCodes: signatureRejectedCodes, signingSecret: signingSecret)
    }
}
