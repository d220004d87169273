import Mediator

extension Mediator {
    /// The name the inquiries' target is registered under.
    package static let inquiryTarget = "inquiry"
}

/// The inquiries' category: the typed call other features make to the inquiries' target.
@MainActor
extension Mediator {
    /// A new sender of questions to listings' agents, for one screen; nil when
    /// inquiries are not available.
    package func inquirySender() -> (any InquirySender)? {
        perform(target: Self.inquiryTarget, action: "sender").value(as: (any InquirySender).self)
    }
}
