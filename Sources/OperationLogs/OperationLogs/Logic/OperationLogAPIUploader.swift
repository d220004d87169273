import Foundation
import Networking

/// Uploads batches through the `logs/upload` API.
@MainActor
package final class OperationLogAPIUploader: OperationLogUploader, APIManagerDelegate, APIManagerParameterSource {
    private let manager: APIManager<OperationLogUploadAPI>
    private var batch: [OperationLogEntry] = []
    private var completion: ((Bool) -> Void)?

    /// An uploader through `engine`.
    package init(engine: APIEngine) {
        manager = APIManager(OperationLogUploadAPI(), engine: engine)
        manager.delegate = self
        manager.parameterSource = self
    }

    package func upload(_ batch: [OperationLogEntry], completion: @escaping (Bool) -> Void) {
        self.batch = batch
        self.completion = completion
        if !manager.loadData() { finish(false) }
    }

    package func parameters(for manager: any APIManaging) -> [String: String] {
        let events = batch.map { "\($0.sequence):\($0.event):\($0.attributes["screen"] ?? "")" }
        return ["count": String(batch.count), "events": events.joined(separator: ",")]
    }

    package func apiManagerDidSucceed(_ manager: any APIManaging) { finish(true) }
    package func apiManagerDidFail(_ manager: any APIManaging) { finish(false) }

    private func finish(_ succeeded: Bool) {
        let done = completion
        completion = nil
        done?(succeeded)
    }
}
