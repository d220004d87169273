/// What the favourites screen shows.
package struct FavoritesViewModel: Equatable, Sendable {
    /// One saved listing as the list shows it.
    package struct Row: Equatable, Sendable {
        /// Its number in the list (what `open N` takes).
        package let number: String
        /// Its name.
        package let name: String
        /// Rental, new home or resale.
        package let kind: String
        /// Its price, formatted.
        package let price: String
        /// How long ago it was saved.
        package let saved: String

        /// A row.
        package init(number: String, name: String, kind: String, price: String, saved: String) {
            self.number = number
            self.name = name
            self.kind = kind
            self.price = price
            self.saved = saved
        }
    }

    /// The rows, in the order saved.
    package var rows: [Row] = []
    /// The footer.
    package var footer = "no favourites yet - fav N on a list saves one"

    /// An empty list.
    package init() {}
}
