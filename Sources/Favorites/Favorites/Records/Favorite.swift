import Foundation
import Persistence
import Signals

/// A saved listing. The favourites module knows listings only by kind name and id, so
/// it does not depend on the listings module.
package struct Favorite: Codable, Equatable, Sendable, Record {
    /// The listing's kind (`rent`, `new`, `resale`).
    package var kind: String
    /// The listing's id within its kind.
    package var listingID: Int
    /// Its name when it was saved.
    package var name: String
    /// Its price when it was saved, in yuan.
    package var price: Int
    /// When it was saved.
    package var savedAt: Date

    /// A favourite.
    package init(kind: String, listingID: Int, name: String, price: Int, savedAt: Date) {
        self.kind = kind
        self.listingID = listingID
        self.name = name
        self.price = price
        self.savedAt = savedAt
    }
}
