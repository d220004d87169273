/// What the listing list shows: every field has a default, so an empty list is valid.
package struct ListingListViewModel: Equatable, Sendable {
    /// One row of the list.
    package struct Row: Equatable, Sendable {
        /// The row number the user types (`open 3`).
        package var number = ""
        /// The listing's name, starred when it is saved.
        package var name = ""
        /// Its price, formatted.
        package var price = ""
        /// Its area, formatted.
        package var area = ""
        /// Its district.
        package var district = ""
        /// How long ago it was updated.
        package var age = ""

        /// A row.
        package init(
            number: String = "", name: String = "", price: String = "", area: String = "", district: String = "",
            age: String = ""
        ) {
            self.number = number
            self.name = name
            self.price = price
            self.area = area
            self.district = district
            self.age = age
        }
    }

    /// The title line, with the kind and filters.
    package var title = "Listings"
    /// The rows.
    package var rows: [Row] = []
    /// Loading or a problem; empty when idle.
    package var status = ""
    /// Paging: how many are shown and whether more can be loaded.
    package var footer = ""
    /// Whether work the screen started is on its way (a request): the screen is busy,
    /// and the session waits for it, while this is true.
    package var isBusy = false

    /// An empty list.
    package init() {}
}
