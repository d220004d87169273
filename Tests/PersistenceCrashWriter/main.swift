// PersistenceCrashWriter: writes batches of rows, one transaction per batch, forever,
// printing each batch number once it is committed; a restarted writer continues after
// the last committed batch. The crash-safety test kills it with
// SIGKILL mid-batch and then checks that no batch is partial.
//
//   PersistenceCrashWriter PATH [ROWS_PER_BATCH]
import Foundation
import Persistence

struct BatchTable: Table {
    let database: Database
    let name = "batch_row"
    let primaryKey = "id"
    let columns = [Column("id", .integer), Column("batch", .integer, notNull: true), Column("payload", .text)]
    let indexes = [TableIndex("batch_row_batch", on: ["batch"])]
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: PersistenceCrashWriter PATH [ROWS_PER_BATCH]\n".utf8))
    exit(2)
}
let rowsPerBatch = arguments.count >= 3 ? max(1, Int(arguments[2]) ?? 50) : 50
let table = BatchTable(database: DatabaseRegistry.shared.database(at: arguments[1]))
let payload = String(repeating: "x", count: 200)
// Resume after the last committed batch, so a restarted writer continues the sequence.
var batch = 0
do {
    try table.prepare()
    let last = try table.database.fetch("SELECT max(batch) AS last FROM batch_row").first?["last"]?.intValue
    batch = (last ?? -1) + 1
} catch {
    FileHandle.standardError.write(Data("cannot open \(arguments[1]): \(error)\n".utf8))
    exit(1)
}
while true {
    do {
        try table.database.transaction(.immediate) { _ in
            for _ in 0..<rowsPerBatch {
                try table.insert(["batch": .integer(Int64(batch)), "payload": .text(payload)])
            }
        }
    } catch {
        FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
        exit(1)
    }
    FileHandle.standardOutput.write(Data("\(batch)\n".utf8))
    batch += 1
}
