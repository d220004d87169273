import Foundation
import HomesScreens
import Mediator
import Networking

/// Fetches the route patch from the API at start and applies it; when that fails, the
/// patch stored by an earlier run applies instead.
@MainActor
final class RoutePatchLoader: APIManagerDelegate {
    struct RoutePatchAPI: APIDefinition {
        let serviceName = "account"
        let methodName = "config/routes"
        func validateResponse(_ response: JSONValue) -> String? {
            response["routes"]?.arrayValue == nil ? "no routes in the patch" : nil
        }
    }

    private let mediator: Mediator
    private let manager: APIManager<RoutePatchAPI>
    private let report: (String) -> Void
    private var loaded: CheckedContinuation<Void, Never>?

    init(engine: APIEngine, mediator: Mediator, report: @escaping (String) -> Void) {
        self.mediator = mediator
        self.report = report
        manager = APIManager(RoutePatchAPI(), engine: engine)
        manager.delegate = self
    }

    /// Fetches and applies the patch; returns once it applied or the stored one did.
    func load() async {
        await withCheckedContinuation { continuation in
            loaded = continuation
            if !manager.loadData() { finish() }
        }
    }

    func apiManagerDidSucceed(_ manager: any APIManaging) {
        defer { finish() }
        guard let patch = manager.fetchData() else { return restore() }
        do {
            try mediator.apply(patch: patch.encoded())
        } catch {
            report("the route patch was refused: \(error)")
            restore()
        }
    }

    func apiManagerDidFail(_ manager: any APIManaging) {
        restore()
        finish()
    }

    private func finish() {
        let done = loaded
        loaded = nil
        done?.resume()
    }

    private func restore() {
        if let problem = mediator.restoreStoredPatch() { report("the stored route patch was refused: \(problem)") }
    }
}
