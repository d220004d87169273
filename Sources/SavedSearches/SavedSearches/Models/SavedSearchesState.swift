/// The saved searches at one moment, and the last storage problem.
package struct SavedSearchesState: Equatable, Sendable {
    /// Every saved search, the last saved first.
    package var searches: [SavedSearch] = []
    /// The last storage problem, for the user.
    package var problem: String?

    /// No saved search, no problem.
    package init() {}
}
