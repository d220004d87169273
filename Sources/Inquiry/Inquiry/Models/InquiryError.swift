/// Why an inquiry could not be sent, or a photo read.
public struct InquiryError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String
}
