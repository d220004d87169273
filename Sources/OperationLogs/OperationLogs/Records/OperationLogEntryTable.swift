import Persistence

/// The operation-log entries waiting to be uploaded, oldest first by `sequence`.
struct OperationLogEntryTable: Table {
    let database: Database
    let name = "operation_log"
    let primaryKey = "sequence"
    let columns = [
        Column("sequence", .integer), Column("event", .text, notNull: true),
        Column("attributes", .text, notNull: true), Column("timestamp", .real, notNull: true),
    ]
}
