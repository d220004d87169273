// persistence-bench: inserts per second (one transaction, and one per insert) and indexed
// finds per second, on a real SQLite file in a temporary folder.
//
//   swift run -c release persistence-bench            50,000 rows
//   swift run -c release persistence-bench 10000      a chosen count
import Dispatch
import Foundation
import Persistence

struct HomeTable: Table {
    let database: Database
    let name = "home"
    let primaryKey = "id"
    let columns = [Column("id", .integer), Column("code", .text, notNull: true), Column("title", .text),
                   Column("price", .real), Column("city", .text)]
    let indexes = [TableIndex("home_code", on: ["code"], unique: true)]
}

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 50_000
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("persistence-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

func row(_ index: Int, prefix: String) -> Row {
    ["code": .text("\(prefix)-\(index)"), "title": .text("Home \(index)"), "price": .real(Double(1_000 + index % 5_000)),
     "city": .text(index % 2 == 0 ? "shanghai" : "hangzhou")]
}

func measure(_ title: String, operations: Int, _ body: () throws -> Void) rethrows {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(title.padding(toLength: 44, withPad: " ", startingAt: 0)
          + String(format: "%12.0f per second  (%d in %.2f s)", Double(operations) / seconds, operations, seconds))
}

let database = DatabasePool.shared.database(at: folder.appendingPathComponent("bench.sqlite").path)
let table = HomeTable(database: database)
try table.prepare()

try measure("inserts, all in one transaction", operations: count) {
    try database.transaction(.immediate) { _ in
        for index in 0..<count { try table.insert(row(index, prefix: "bulk")) }
    }
}
let single = max(1, count / 10)
try measure("inserts, one transaction each (WAL)", operations: single) {
    for index in 0..<single { try table.insert(row(index, prefix: "single")) }
}
try measure("indexed finds by unique code", operations: count) {
    for index in 0..<count {
        _ = try table.find(where: "code = :code", ["code": .text("bulk-\((index &* 7_919) % count)")])
    }
}
try measure("finds by primary key", operations: count) {
    for index in 0..<count { _ = try table.find(primaryKey: .integer(Int64(1 + (index &* 7_919) % count))) }
}
