import Foundation
import Networking
import Persistence

/// The operation-log store over SQLite: entries survive a restart until uploaded.
public final class OperationLogDataCenter: OperationLogStore, Sendable {
    struct EntryTable: Table {
        let database: Database
        let name = "operation_log"
        let primaryKey = "sequence"
        let columns = [Column("sequence", .integer), Column("event", .text, notNull: true),
                       Column("attributes", .text, notNull: true), Column("timestamp", .real, notNull: true)]
    }

    private let table: EntryTable

    /// The migrations this data center needs.
    public static let migrations = [
        Migration("operation log") { try EntryTable(database: $0).prepare() },
    ]

    /// A store in `database`.
    public init(database: Database) {
        table = EntryTable(database: database)
    }

    public func append(event: String, attributes: [String: String], timestamp: Date) -> OperationLogEntry {
        let encoded = (try? JSONEncoder().encode(attributes)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let sequence = (try? table.insert(["event": .text(event), "attributes": .text(encoded),
                                           "timestamp": .real(timestamp.timeIntervalSince1970)])) ?? 0
        return OperationLogEntry(sequence: sequence, event: event, attributes: attributes, timestamp: timestamp)
    }

    public func oldest(_ limit: Int) -> [OperationLogEntry] {
        let rows = (try? table.findAll(orderBy: "sequence", limit: limit)) ?? []
        return rows.compactMap { row in
            guard let sequence = row["sequence"]?.int64Value else { return nil }
            // A row that cannot be read still goes out (as "unreadable") so it is removed
            // with its batch instead of blocking every later batch.
            let event = row["event"]?.stringValue ?? "unreadable"
            let attributes = row["attributes"]?.stringValue
                .flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
            return OperationLogEntry(sequence: sequence, event: event, attributes: attributes,
                                     timestamp: Date(timeIntervalSince1970: row["timestamp"]?.doubleValue ?? 0))
        }
    }

    @discardableResult
    public func remove(_ sequences: Set<Int64>) -> Bool {
        guard !sequences.isEmpty else { return true }
        let list = sequences.map { String($0) }.joined(separator: ",")
        return (try? table.delete(where: "sequence IN (\(list))")) == sequences.count
    }

    public var count: Int {
        (try? table.count()) ?? 0
    }
}

/// Uploads batches through the `logs/upload` API.
@MainActor
public final class OperationLogAPIUploader: OperationLogUploader, APIManagerDelegate, APIManagerParameterSource {
    struct UploadAPI: APIDefinition {
        let serviceName = "account"
        let methodName = "logs/upload"
        let httpMethod = HTTPMethod.post
        let requestStrategy = RequestStrategy.ignoreNewWhileLoading
        func validateResponse(_ response: JSONValue) -> String? {
            response["accepted"]?.intValue == nil ? "the log service did not confirm" : nil
        }
    }

    private let manager: APIManager<UploadAPI>
    private var batch: [OperationLogEntry] = []
    private var completion: ((Bool) -> Void)?

    /// An uploader through `engine`.
    public init(engine: APIEngine) {
        manager = APIManager(UploadAPI(), engine: engine)
        manager.delegate = self
        manager.parameterSource = self
    }

    public func upload(_ batch: [OperationLogEntry], completion: @escaping (Bool) -> Void) {
        self.batch = batch
        self.completion = completion
        if !manager.loadData() { finish(false) }
    }

    public func parameters(for manager: any APIManaging) -> [String: String] {
        let events = batch.map { "\($0.sequence):\($0.event):\($0.attributes["screen"] ?? "")" }
        return ["count": String(batch.count), "events": events.joined(separator: ",")]
    }

    public func apiManagerDidSucceed(_ manager: any APIManaging) { finish(true) }
    public func apiManagerDidFail(_ manager: any APIManaging) { finish(false) }

    private func finish(_ succeeded: Bool) {
        let done = completion
        completion = nil
        done?(succeeded)
    }
}
