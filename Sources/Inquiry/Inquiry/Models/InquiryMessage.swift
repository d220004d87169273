import Foundation

/// A message to a listing's agent, plain or with a photo.
package struct InquiryMessage: Sendable, Equatable {
    /// The listing's kind name (`rent`, `new`, `resale`).
    package let kind: String
    /// The listing's id.
    package let listingID: Int
    /// What to ask.
    package let text: String
    /// A photo to attach, if any.
    package let photo: Data?

    /// A message.
    package init(kind: String, listingID: Int, text: String, photo: Data? = nil) {
        self.kind = kind
        self.listingID = listingID
        self.text = text
        self.photo = photo
    }
}
