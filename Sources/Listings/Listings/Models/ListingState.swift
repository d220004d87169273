/// What the listing list is at one moment: its pages (kind, filters, listings) and how
/// loading goes. Derived by `ListingLogic` from its pages and its activity, never set by
/// hand; its pages' fields read through it (`state.listings`).
@dynamicMemberLookup
package struct ListingState: Equatable, Sendable {
    /// What is loaded.
    package let pages: ListingPages
    /// Whether a page is loading.
    package let isLoading: Bool
    /// The last problem, for the user; nil when all is well.
    package let problem: String?

    /// The list of `pages`, loading or not, with `problem`.
    package init(pages: ListingPages = ListingPages(), isLoading: Bool = false, problem: String? = nil) {
        self.pages = pages
        self.isLoading = isLoading
        self.problem = problem
    }

    /// A field of the pages.
    package subscript<Field>(dynamicMember field: KeyPath<ListingPages, Field>) -> Field {
        pages[keyPath: field]
    }
}
