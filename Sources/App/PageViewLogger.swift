import Foundation
import HomesScreens
import Mediator
import Networking

/// Logs a page view for every screen shown, through the session's lifecycle hooks.
@MainActor
final class PageViewLogger: ScreenLifecycleObserver {
    private let logger: OperationLogger

    init(logger: OperationLogger) {
        self.logger = logger
    }

    func screenDidAppear(_ name: String) {
        logger.record("page_view", attributes: ["screen": name])
    }
}
