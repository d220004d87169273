import FeatureKit
import InquiryCategory
import Mediator

/// Questions to agents as the app composes them: the target that hands a sender, with
/// its logic, to each screen that asks. No screen of its own.
@MainActor
package struct InquiryFeature: Feature {
    /// The feature.
    package init() {}

    package func register(in mediator: Mediator, with context: FeatureContext) {
        mediator.register(target: Mediator.inquiryTarget) { InquiryTarget(engine: context.engine) }
    }
}
