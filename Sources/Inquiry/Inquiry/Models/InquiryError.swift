/// Why an inquiry could not be sent, or a photo read.
package struct InquiryError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong.
    package let description: String
}
