import ListingsCategory

/// A listing saved as a favourite, as other features see it: its kind's name (`rent`,
/// `new`, `resale`; stored as text, so a kind written by another version stays readable)
/// and its id within that kind.
package struct SavedListing: Hashable, Sendable {
    /// The name of the listing's kind.
    package let kind: String
    /// The listing's id within its kind.
    package let id: Int

    /// The listing `id` of the kind named `kind`.
    package init(kind: String, id: Int) {
        self.kind = kind
        self.id = id
    }

    /// The listing `id` of `kind`.
    package init(kind: ListingKind, id: Int) {
        self.init(kind: kind.rawValue, id: id)
    }
}
