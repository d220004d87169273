/// The kinds of listing, each served by its own API with its own keys. Part of the
/// listings' category, so other features can name a kind without importing `Listings`.
package enum ListingKind: String, CaseIterable, Sendable {
    case rent, new, resale
}
