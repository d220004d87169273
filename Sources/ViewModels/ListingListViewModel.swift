/// What the listing list shows: every field has a default, so an empty list is valid.
public struct ListingListViewModel: Equatable, Sendable {
    /// One row of the list.
    public struct Row: Equatable, Sendable {
        /// The row number the user types (`open 3`).
        public var number = ""
        /// The listing's name, starred when it is saved.
        public var name = ""
        /// Its price, formatted.
        public var price = ""
        /// Its area, formatted.
        public var area = ""
        /// Its district.
        public var district = ""
        /// How long ago it was updated.
        public var age = ""

        /// A row.
        public init(
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
    public var title = "Listings"
    /// The rows.
    public var rows: [Row] = []
    /// Loading or a problem; empty when idle.
    public var status = ""
    /// Paging: how many are shown and whether more can be loaded.
    public var footer = ""

    /// An empty list.
    public init() {}
}
