import Networking
import Synchronization

/// What the app itself calls: its route patch at start, and its operation log.
extension HomesAPIServer {
    static let appRoutes = [
        Route(.any, "config/routes") { server, _ in .json(server.routePatch) },
        Route(.any, "logs/upload") { $0.uploadLogs($1) },
    ]

    /// Counts a batch of operation-log events.
    private func uploadLogs(_ parameters: [String: String]) -> HTTPResponse {
        guard let count = parameters["count"].flatMap({ Int($0) }), (1...1_000).contains(count) else {
            return .json(["message": "a batch holds 1 to 1000 events"], status: 400)
        }
        uploadedEvents.add(count, ordering: .relaxed)
        return .json(["accepted": .number(Double(count))])
    }
}
