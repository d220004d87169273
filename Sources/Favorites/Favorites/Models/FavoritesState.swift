/// The favourites at one moment, and the last storage problem.
public struct FavoritesState: Equatable, Sendable {
    /// Every favourite, newest first.
    public var favorites: [Favorite] = []
    /// The last storage problem, for the user.
    public var problem: String?

    /// No favourites, no problem.
    public init() {}
}
