/// What the favourites screen shows.
public struct FavoritesViewModel: Equatable, Sendable {
    /// One saved listing as the list shows it.
    public struct Row: Equatable, Sendable {
        /// Its number in the list (what `open N` takes).
        public let number: String
        /// Its name.
        public let name: String
        /// Rental, new home or resale.
        public let kind: String
        /// Its price, formatted.
        public let price: String
        /// How long ago it was saved.
        public let saved: String

        /// A row.
        public init(number: String, name: String, kind: String, price: String, saved: String) {
            self.number = number
            self.name = name
            self.kind = kind
            self.price = price
            self.saved = saved
        }
    }

    /// The rows, in the order saved.
    public var rows: [Row] = []
    /// The footer.
    public var footer = "no favourites yet - fav N on a list saves one"

    /// An empty list.
    public init() {}
}
