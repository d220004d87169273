/// What the saved-searches screen shows. Beside the builder that makes it from the
/// feature's state (`SavedSearchesViewModel+SavedSearches.swift`).
package struct SavedSearchesViewModel: Equatable, Sendable {
    /// One saved search as the list shows it.
    package struct Row: Equatable, Sendable {
        /// Its number in the list (what `run N` and `delete N` take).
        package let number: String
        /// The name it was saved under, or a dash.
        package let name: String
        /// The kind of listing: Rentals, New homes or Resale.
        package let kind: String
        /// Its filters, `key=value` in the order of their keys, or `none`.
        package let filters: String
        /// How long ago it was saved.
        package let saved: String

        /// A row.
        package init(number: String, name: String, kind: String, filters: String, saved: String) {
            self.number = number
            self.name = name
            self.kind = kind
            self.filters = filters
            self.saved = saved
        }
    }

    /// The rows, the last saved first.
    package var rows: [Row] = []
    /// The last storage problem, or empty.
    package var status = ""
    /// The footer.
    package var footer = "no saved searches yet - save on a list saves one"

    /// An empty list.
    package init() {}
}
