import ListingsCategory
import Signals

/// Sends a question about a listing to its agent: what the inquiries' target hands to
/// other features, so they can ask without importing `Inquiry`.
@MainActor
package protocol InquirySender: AnyObject {
    /// Where the last question is: one value per change.
    var state: Property<InquiryState> { get }
    /// Asks `text` about the listing `listingID` of `kind`, with the photo
    /// at `photoPath` if there is one; returns a problem at once for bad input, or nil.
    func ask(kind: ListingKind, listingID: Int, text: String, photoPath: String?) -> String?
    /// Stops the question on its way, if any.
    func cancel()
}
