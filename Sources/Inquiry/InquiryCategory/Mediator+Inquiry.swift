import Mediator

extension Mediator {
    /// The name the inquiries' target is registered under.
    public static let inquiryTarget = "inquiry"
}

/// The inquiries' category: the typed call other features make to the inquiries' target.
@MainActor
extension Mediator {
    /// A new sender of questions to listings' agents, for one screen; nil when
    /// inquiries are not available.
    public func inquirySender() -> (any InquirySender)? {
        perform(target: Self.inquiryTarget, action: "sender").value(as: (any InquirySender).self)
    }
}
