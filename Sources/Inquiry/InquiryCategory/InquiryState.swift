/// Where a question to an agent is: what the screen says about it, and whether it is on
/// its way.
package struct InquiryState: Equatable, Sendable {
    /// Sending, sent or failed, for the screen; nil before the first question.
    package var status: String?
    /// Whether a question is on its way.
    package var isSending = false

    /// A state.
    package init(status: String? = nil, isSending: Bool = false) {
        self.status = status
        self.isSending = isSending
    }
}
