import InquiryCategory
import Mediator
import Networking

/// The inquiries' target: hands out a sender of questions (an `InquiryLogic`) to the
/// screens that ask, one for each. Registered by `InquiryFeature`; reached through the
/// inquiries' category.
@MainActor
package final class InquiryTarget: @MainActor MediatorTarget {
    private let engine: APIEngine

    /// A target whose senders send through `engine`'s `account` service.
    package init(engine: APIEngine) {
        self.engine = engine
    }

    package func registerActions(_ actions: TargetActions) {
        actions.on("sender") { [engine] _ in InquiryLogic(engine: engine) as any InquirySender }
    }
}
