import Foundation
import Networking
import Persistence

/// The operation-log store over SQLite: entries survive a restart until uploaded.
package final class OperationLogDataCenter: OperationLogStore, Sendable {
    private let table: OperationLogEntryTable

    /// The migrations this data center needs.
    package static let migrations = [
        Migration("operation log") { try OperationLogEntryTable(database: $0).prepare() }
    ]

    /// A store in `database`.
    package init(database: Database) {
        table = OperationLogEntryTable(database: database)
    }

    package func append(event: String, attributes: [String: String], timestamp: Date) -> OperationLogEntry {
        let encoded = (try? JSONEncoder().encode(attributes)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let sequence =
            (try? table.insert([
                "event": .text(event), "attributes": .text(encoded),
                "timestamp": .real(timestamp.timeIntervalSince1970),
            ])) ?? 0
        return OperationLogEntry(sequence: sequence, event: event, attributes: attributes, timestamp: timestamp)
    }

    package func oldest(_ limit: Int) -> [OperationLogEntry] {
        let rows = (try? table.findAll(orderBy: "sequence", limit: limit)) ?? []
        return rows.compactMap { row in
            guard let sequence = row["sequence"]?.int64Value else { return nil }
            // A row that cannot be read still goes out (as "unreadable") so it is removed
            // with its batch instead of blocking every later batch.
            let event = row["event"]?.stringValue ?? "unreadable"
            let attributes =
                row["attributes"]?.stringValue
                .flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
            return OperationLogEntry(
                sequence: sequence, event: event, attributes: attributes,
                timestamp: Date(timeIntervalSince1970: row["timestamp"]?.doubleValue ?? 0))
        }
    }

    @discardableResult
    package func remove(_ sequences: Set<Int64>) -> Bool {
        guard !sequences.isEmpty else { return true }
        let list = sequences.map { String($0) }.joined(separator: ",")
        return (try? table.delete(where: "sequence IN (\(list))")) == sequences.count
    }

    package var count: Int {
        (try? table.count()) ?? 0
    }
}
