import FeatureKit
import HomesScreens
import Networking
import Persistence

/// Operation logs as the app composes them: their table's migrations, and a page view
/// logged for every screen shown. The logs wait in SQLite and go up in batches of 30;
/// what an earlier run left goes up at start.
@MainActor
package struct OperationLogsFeature: Feature {
    /// The feature.
    package init() {}

    package var migrations: [Migration] { OperationLogDataCenter.migrations }

    package func screenObservers(_ context: FeatureContext) -> [any ScreenLifecycleObserver] {
        let logger = OperationLogger(
            store: OperationLogDataCenter(database: context.database),
            uploader: OperationLogAPIUploader(engine: context.engine))
        logger.uploadPending()
        return [ScreenObserver { logger.record("page_view", attributes: ["screen": $0]) }]
    }
}
