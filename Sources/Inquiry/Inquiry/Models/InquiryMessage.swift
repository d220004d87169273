import Foundation

/// A message to a listing's agent, plain or with a photo.
public struct InquiryMessage: Sendable, Equatable {
    /// The listing's kind name (`rent`, `new`, `resale`).
    public let kind: String
    /// The listing's id.
    public let listingID: Int
    /// What to ask.
    public let text: String
    /// A photo to attach, if any.
    public let photo: Data?

    /// A message.
    public init(kind: String, listingID: Int, text: String, photo: Data? = nil) {
        self.kind = kind
        self.listingID = listingID
        self.text = text
        self.photo = photo
    }
}
