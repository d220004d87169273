// persistence-bench: the library beside its floor, the sqlite3 C API called by hand
// (prepared statements reused, values bound, the same pragmas and schema), in one process,
// interleaved: floor, library, library, floor, ... with fresh database files every rep.
// Prints per scenario the median time of each side and the ratio library / floor.
//
//   swift run -c release --package-path Benchmarks persistence-bench                      every scenario, 7 runs
//   swift run -c release --package-path Benchmarks persistence-bench --runs 11 --scale 0.5 insert find-pk
//
// Instructions instead of time (each side's timed body is its own function):
//   valgrind --tool=callgrind --callgrind-out-file=cg.out .build/release/persistence-bench --runs 1 --scale 0.2 insert
//   callgrind_annotate --inclusive=yes cg.out | grep -E 'time(Floor|Library)'
//
// Allocation counts (CI):
//   persistence-bench --check-thresholds Benchmarks/Thresholds/persistence-bench.json
//
// Scenarios: insert (100k inserts in one transaction), insert-each (2k inserts, one
// transaction each), find-pk (100k finds by primary key), find-code (100k finds by an
// indexed unique text column), fetch-codable (10 fetches of 10k rows as Codable records),
// fetch-rows (the same read by a hand-written `init(row:)`, columns by position),
// fetch-columns (the same read by a `ColumnReadable` record's `init(columns:)`).
import BenchmarkSupport
import Dispatch
import Foundation
import Persistence
import SQLite3

// MARK: - Options

let scenarioNames = [
    "insert", "insert-each", "find-pk", "find-code", "fetch-codable", "fetch-rows", "fetch-columns",
]
let options = BenchmarkOptions.parse(
    program: "persistence-bench", defaultRuns: 7, usage: "[\(scenarioNames.joined(separator: " | "))]..."
) { scenarioNames.contains($0) ? $0 : nil }

/// A threshold run counts the library's allocations at this scale (1,000 inserts, 20
/// transactions, 1,000 finds, 10 fetches of 100 rows), whatever `--scale` says, so that
/// the counts stay comparable.
let thresholdScale = 0.01
let thresholdRun = options.thresholds.map { ThresholdRun($0, program: "persistence-bench") }
let scale = thresholdRun == nil ? options.scale : thresholdScale

// MARK: - The schema, for both sides

struct HomeTable: Table {
    let database: Database
    let name = "home"
    let primaryKey = "id"
    let columns = [
        Column("id", .integer), Column("code", .text, notNull: true), Column("title", .text),
        Column("price", .real), Column("city", .text),
    ]
    let indexes = [TableIndex("home_code", on: ["code"], unique: true)]
}

/// What `HomeTable.prepare()` creates, spelled out for the floor.
let schema = [
    #"CREATE TABLE IF NOT EXISTS "home" ("id" INTEGER PRIMARY KEY, "code" TEXT NOT NULL, "title" TEXT, "price" REAL, "city" TEXT)"#,
    #"CREATE UNIQUE INDEX IF NOT EXISTS "home_code" ON "home" ("code")"#,
]

struct Home: Codable, Record, Equatable {
    var id: Int64
    var code: String
    var title: String?
    var price: Double?
    var city: String?
}

/// The same record read by a hand-written `init(row:)`, its columns by position.
struct HandReadHome: Record {
    var id: Int64
    var code: String
    var title: String?
    var price: Double?
    var city: String?

    init(row: borrowing Row) throws {
        id = try row.value(at: 0)
        code = try row.value(at: 1)
        title = try row.value(at: 2)
        price = try row.value(at: 3)
        city = try row.value(at: 4)
    }

    func row(for table: any Table) throws -> Row {
        [
            "id": .integer(id), "code": .text(code), "title": title.map { .text($0) } ?? .null,
            "price": price.map { .real($0) } ?? .null, "city": city.map { .text($0) } ?? .null,
        ]
    }
}

/// The same record read in place by `init(columns:)`, its columns by position.
struct ColumnReadHome: ColumnReadable {
    var id: Int64
    var code: String
    var title: String?
    var price: Double?
    var city: String?

    init(columns: borrowing ColumnReader) throws {
        id = try columns.value(at: 0)
        code = try columns.value(at: 1)
        title = try columns.value(at: 2)
        price = try columns.value(at: 3)
        city = try columns.value(at: 4)
    }

    func row(for table: any Table) throws -> Row {
        [
            "id": .integer(id), "code": .text(code), "title": title.map { .text($0) } ?? .null,
            "price": price.map { .real($0) } ?? .null, "city": city.map { .text($0) } ?? .null,
        ]
    }
}

/// The values of row `index` (1-based ids), made before any clock starts.
struct Inputs {
    let codes: [String]
    let titles: [String]
    let prices: [Double]
    let cities: [String]

    init(count: Int, prefix: String) {
        codes = (0..<count).map { "\(prefix)-\($0)" }
        titles = (0..<count).map { "Home \($0)" }
        prices = (0..<count).map { Double(1_000 + $0 % 5_000) }
        cities = (0..<count).map { $0 % 2 == 0 ? "shanghai" : "hangzhou" }
    }

    var count: Int { codes.count }
}

/// Keeps results alive so no side is optimised away.
nonisolated(unsafe) var sink = 0
@inline(never) func consume(_ value: Int) { sink &+= value }

// MARK: - The floor: sqlite3 by hand

struct FloorError: Error, CustomStringConvertible {
    let description: String
}

/// One connection opened as `Database` opens its own, and nothing else.
final class Floor {
    let handle: OpaquePointer

    init(path: String) throws {
        var opened: OpaquePointer?
        guard
            sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK,
            let opened
        else { throw FloorError(description: "cannot open \(path)") }
        handle = opened
        sqlite3_busy_timeout(handle, 5_000)
        sqlite3_extended_result_codes(handle, 0)
        guard floor_sqlite_refuse_double_quoted_strings(handle) == SQLITE_OK else {
            throw FloorError(description: "dqs")
        }
        for sql in ["SELECT count(*) FROM sqlite_master", "PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON"] + schema
        {
            try exec(sql)
        }
    }

    deinit { sqlite3_close_v2(handle) }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        return statement
    }

    func failure(_ sql: String) -> FloorError {
        FloorError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
    }

    /// Inserts every input row with one reused statement (the caller holds the transaction).
    func insert(_ inputs: Inputs, eachInItsOwnTransaction: Bool = false) throws {
        let insert = try prepare(#"INSERT INTO "home" ("city", "code", "price", "title") VALUES (?, ?, ?, ?)"#)
        defer { sqlite3_finalize(insert) }
        for index in 0..<inputs.count {
            bindText(inputs.cities[index], 1, insert)
            bindText(inputs.codes[index], 2, insert)
            sqlite3_bind_double(insert, 3, inputs.prices[index])
            bindText(inputs.titles[index], 4, insert)
            guard sqlite3_step(insert) == SQLITE_DONE else { throw failure("insert") }
            consume(Int(sqlite3_last_insert_rowid(handle)))
            sqlite3_reset(insert)
        }
    }

    func bindText(_ text: String, _ index: Int32, _ statement: OpaquePointer) {
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                _ = sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), floor_sqlite_transient())
            }
        }
    }

    /// The row the statement stands on, read into Swift values.
    static func home(_ statement: OpaquePointer) -> Home {
        Home(
            id: sqlite3_column_int64(statement, 0), code: text(statement, 1) ?? "", title: text(statement, 2),
            price: sqlite3_column_type(statement, 3) == SQLITE_NULL ? nil : sqlite3_column_double(statement, 3),
            city: text(statement, 4))
    }

    static func text(_ statement: OpaquePointer, _ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, index) else { return nil }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))),
            as: UTF8.self)
    }
}

// MARK: - Scenarios

struct Scenario {
    let name: String
    let title: String
    /// Operations per rep, for the per-operation column.
    let operations: Int
    let goal: Double?
    /// Sets up an untimed fresh file at the path; returns the timed body.
    let floor: (String) throws -> () throws -> Void
    let library: (String) throws -> () throws -> Void
}

/// Fills a fresh file at `path` with `inputs` through the floor (untimed set-up).
/// The floor of the three fetch scenarios: `fetches` reads of every row into `Home`s with
/// raw sqlite3 calls.
func fetchFloor(_ path: String, _ fetched: Inputs, _ fetches: Int) throws -> () throws -> Void {
    try prefill(path, fetched)
    let floor = try Floor(path: path)
    return {
        let all = try floor.prepare(#"SELECT * FROM "home" ORDER BY "id""#)
        defer { sqlite3_finalize(all) }
        for _ in 0..<fetches {
            var homes: [Home] = []
            while sqlite3_step(all) == SQLITE_ROW { homes.append(Floor.home(all)) }
            sqlite3_reset(all)
            guard homes.count == fetched.count else { throw FloorError(description: "rows missing") }
            consume(homes.count)
        }
    }
}

func prefill(_ path: String, _ inputs: Inputs) throws {
    let floor = try Floor(path: path)
    try floor.exec("BEGIN IMMEDIATE")
    try floor.insert(inputs)
    try floor.exec("COMMIT")
}

/// A library database at `path`, its table prepared (untimed set-up).
func libraryTable(_ path: String) throws -> HomeTable {
    let table = HomeTable(database: Database(path: path))
    try table.prepare()
    return table
}

func scenarios(scale: Double) -> [Scenario] {
    func scaled(_ count: Int) -> Int { max(1, Int((Double(count) * scale).rounded())) }
    let inserts = Inputs(count: scaled(100_000), prefix: "bulk")
    let single = Inputs(count: scaled(2_000), prefix: "single")
    let finds = scaled(100_000)
    let fetched = Inputs(count: scaled(10_000), prefix: "fetch")
    let fetches = 10
    /// Scattered 1-based ids.
    func id(_ index: Int, of count: Int) -> Int64 { Int64(1 + (index &* 7_919) % count) }

    return [
        Scenario(
            name: "insert", title: "inserts, all in one transaction", operations: inserts.count, goal: 1.3,
            floor: { path in
                let floor = try Floor(path: path)
                return {
                    try floor.exec("BEGIN IMMEDIATE")
                    try floor.insert(inserts)
                    try floor.exec("COMMIT")
                }
            },
            library: { path in
                let table = try libraryTable(path)
                return {
                    try table.database.transaction(.immediate) { _ in
                        for index in 0..<inserts.count {
                            consume(
                                Int(
                                    try table.insert([
                                        "code": .text(inserts.codes[index]),
                                        "title": .text(inserts.titles[index]),
                                        "price": .real(inserts.prices[index]),
                                        "city": .text(inserts.cities[index]),
                                    ])))
                        }
                    }
                }
            }),
        Scenario(
            name: "insert-each", title: "inserts, one transaction each (WAL)", operations: single.count, goal: nil,
            floor: { path in
                let floor = try Floor(path: path)
                return { try floor.insert(single) }
            },
            library: { path in
                let table = try libraryTable(path)
                return {
                    for index in 0..<single.count {
                        consume(
                            Int(
                                try table.insert([
                                    "code": .text(single.codes[index]),
                                    "title": .text(single.titles[index]),
                                    "price": .real(single.prices[index]),
                                    "city": .text(single.cities[index]),
                                ])))
                    }
                }
            }),
        Scenario(
            name: "find-pk", title: "finds by primary key", operations: finds, goal: 1.3,
            floor: { path in
                try prefill(path, inserts)
                let floor = try Floor(path: path)
                return {
                    let find = try floor.prepare(#"SELECT * FROM "home" WHERE "id" = ?"#)
                    defer { sqlite3_finalize(find) }
                    for index in 0..<finds {
                        sqlite3_bind_int64(find, 1, id(index, of: inserts.count))
                        guard sqlite3_step(find) == SQLITE_ROW else { throw floor.failure("find") }
                        consume(Int(Floor.home(find).id))
                        sqlite3_reset(find)
                    }
                }
            },
            library: { path in
                try prefill(path, inserts)
                let table = try libraryTable(path)
                return {
                    for index in 0..<finds {
                        guard let row = try table.find(primaryKey: .integer(id(index, of: inserts.count))) else {
                            throw FloorError(description: "row missing")
                        }
                        consume(row["id"]?.intValue ?? 0)
                    }
                }
            }),
        Scenario(
            name: "find-code", title: "finds by an indexed unique text column", operations: finds, goal: nil,
            floor: { path in
                try prefill(path, inserts)
                let floor = try Floor(path: path)
                return {
                    let find = try floor.prepare(#"SELECT * FROM "home" WHERE code = ?"#)
                    defer { sqlite3_finalize(find) }
                    for index in 0..<finds {
                        floor.bindText(inserts.codes[Int(id(index, of: inserts.count)) - 1], 1, find)
                        guard sqlite3_step(find) == SQLITE_ROW else { throw floor.failure("find") }
                        consume(Int(Floor.home(find).id))
                        sqlite3_reset(find)
                    }
                }
            },
            library: { path in
                try prefill(path, inserts)
                let table = try libraryTable(path)
                return {
                    for index in 0..<finds {
                        let code = inserts.codes[Int(id(index, of: inserts.count)) - 1]
                        guard let row = try table.find(where: "code = :code", ["code": .text(code)]).first else {
                            throw FloorError(description: "row missing")
                        }
                        consume(row["id"]?.intValue ?? 0)
                    }
                }
            }),
        Scenario(
            name: "fetch-codable", title: "Codable fetches of \(fetched.count) rows (x\(fetches))",
            operations: fetched.count * fetches, goal: 2,
            floor: { path in try fetchFloor(path, fetched, fetches) },
            library: { path in
                try prefill(path, fetched)
                let table = try libraryTable(path)
                return {
                    for _ in 0..<fetches {
                        let homes = try table.records(Home.self)
                        guard homes.count == fetched.count else { throw FloorError(description: "rows missing") }
                        consume(homes.count)
                    }
                }
            }),
        Scenario(
            name: "fetch-rows", title: "init(row:) fetches of \(fetched.count) rows (x\(fetches))",
            operations: fetched.count * fetches, goal: 1.2,
            floor: { path in try fetchFloor(path, fetched, fetches) },
            library: { path in
                try prefill(path, fetched)
                let table = try libraryTable(path)
                return {
                    for _ in 0..<fetches {
                        let homes = try table.records(HandReadHome.self)
                        guard homes.count == fetched.count else { throw FloorError(description: "rows missing") }
                        consume(homes.count)
                    }
                }
            }),
        Scenario(
            name: "fetch-columns", title: "init(columns:) fetches of \(fetched.count) rows (x\(fetches))",
            operations: fetched.count * fetches, goal: 1.2,
            floor: { path in try fetchFloor(path, fetched, fetches) },
            library: { path in
                try prefill(path, fetched)
                let table = try libraryTable(path)
                return {
                    for _ in 0..<fetches {
                        let homes = try table.records(ColumnReadHome.self)
                        guard homes.count == fetched.count else { throw FloorError(description: "rows missing") }
                        consume(homes.count)
                    }
                }
            }),
    ]
}

// MARK: - Running

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func format(_ seconds: Double) -> String {
    seconds >= 1 ? String(format: "%.2f s", seconds) : String(format: "%.1f ms", seconds * 1_000)
}

func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let room = max(0, width - text.count)
    return left ? String(repeating: " ", count: room) + text : text + String(repeating: " ", count: room)
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("persistence-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

/// A fresh database file.
func freshPath() -> String {
    folder.appendingPathComponent("bench-\(UUID().uuidString).sqlite").path
}

func removeFiles(_ path: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// Sets up a side on a fresh file, times its body, and drops its connection and files.
func rep(_ side: (String) throws -> () throws -> Void, _ time: (() throws -> Void) throws -> Double) throws -> Double {
    let path = freshPath()
    defer { removeFiles(path) }
    return try time(try side(path))
}

// One function per side, so a profile tells them apart (callgrind_annotate --inclusive=yes
// shows the instructions of each under its name).
// (They differ, or the optimizer would merge them into one.)
@inline(never) func timeFloor(_ body: () throws -> Void) throws -> Double {
    consume(1)
    return try seconds(body)
}

@inline(never) func timeLibrary(_ body: () throws -> Void) throws -> Double {
    let elapsed = try seconds(body)
    consume(Int(elapsed))
    return elapsed
}

if let thresholdRun {
    // The library side of every scenario on a fresh file, its set-up not counted.
    for scenario in scenarios(scale: scale) {
        try thresholdRun.measure(scenario.name) {
            let path = freshPath()
            defer { removeFiles(path) }
            let body = try scenario.library(path)
            return (scenario.operations, try countAllocations(body))
        }
    }
    thresholdRun.finish()
}

print("persistence-bench: \(options.runs) runs, scale \(scale); medians of interleaved reps in one process")
print(
    pad("scenario", 15) + pad("rows", 9, left: true) + pad("floor", 11, left: true) + pad("library", 11, left: true)
        + pad("ratio", 8, left: true) + pad("goal", 7, left: true) + "  floor ns/op  library ns/op")
let selected = Set(options.scenarios.isEmpty ? scenarioNames : options.scenarios)
for scenario in scenarios(scale: scale) where selected.contains(scenario.name) {
    let (floorTimes, libraryTimes) = try options.alternate(
        floor: { try rep(scenario.floor, timeFloor) }, library: { try rep(scenario.library, timeLibrary) })
    let floor = median(floorTimes)
    let library = median(libraryTimes)
    let ratio = library / floor
    let goal = scenario.goal.map { String(format: "<=%.1f", $0) } ?? "-"
    let met = scenario.goal.map { ratio <= $0 ? " " : "!" } ?? " "
    print(
        pad(scenario.name, 15) + pad("\(scenario.operations)", 9, left: true) + pad(format(floor), 11, left: true)
            + pad(format(library), 11, left: true) + pad(String(format: "%.2fx", ratio), 8, left: true) + met
            + pad(goal, 6, left: true)
            + pad(String(format: "%.0f", floor / Double(scenario.operations) * 1e9), 13, left: true)
            + pad(String(format: "%.0f", library / Double(scenario.operations) * 1e9), 15, left: true))
}
consume(0)
if sink == 42 { print("") }
