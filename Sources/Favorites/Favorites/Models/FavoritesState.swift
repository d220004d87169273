/// The favourites at one moment, and the last storage problem.
package struct FavoritesState: Equatable, Sendable {
    /// Every favourite, newest first.
    package var favorites: [Favorite] = []
    /// The last storage problem, for the user.
    package var problem: String?

    /// No favourites, no problem.
    package init() {}
}
