import Foundation
import Persistence
import Signals

/// A saved listing. The favourites module knows listings only by kind name and id, so
/// it does not depend on the listings module.
public struct Favorite: Codable, Equatable, Sendable, Record {
    /// The listing's kind (`rent`, `new`, `resale`).
    public var kind: String
    /// The listing's id within its kind.
    public var listingID: Int
    /// Its name when it was saved.
    public var name: String
    /// Its price when it was saved, in yuan.
    public var price: Int
    /// When it was saved.
    public var savedAt: Date

    /// A favourite.
    public init(kind: String, listingID: Int, name: String, price: Int, savedAt: Date) {
        self.kind = kind
        self.listingID = listingID
        self.name = name
        self.price = price
        self.savedAt = savedAt
    }
}
