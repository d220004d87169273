import Foundation
import Persistence
import Signals

/// A listing list saved to show again: its kind and its filters, and a name if it was
/// given one. Kept as text (the kind's name, the filters as a JSON object with its keys
/// in order), so the same search is the same row and a kind written by another version
/// stays readable.
package struct SavedSearch: Codable, Equatable, Sendable, Record {
    /// The kind of listing (`rent`, `new`, `resale`).
    package var kind: String
    /// The filters, as a JSON object of strings with its keys in order (`{"rooms":"2"}`).
    package var filters: String
    /// The name it was saved under, if any.
    package var name: String?
    /// When it was last saved.
    package var savedAt: Date

    /// The search of `kind` with `filters`, saved at `savedAt` under `name`.
    package init(kind: String, filters: [String: String], name: String? = nil, savedAt: Date) {
        self.kind = kind
        self.filters = Self.text(of: filters)
        self.name = name
        self.savedAt = savedAt
    }

    /// The filters by key; nil when the stored text is not a JSON object of strings.
    package var filterValues: [String: String]? {
        try? JSONDecoder().decode([String: String].self, from: Data(filters.utf8))
    }

    /// `filters` as stored: one text for the same filters, whatever their order.
    static func text(of filters: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A dictionary of strings always encodes; the empty object stands in all the same.
        return (try? encoder.encode(filters)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
