import Foundation
import Persistence
import Testing

/// A child process writing transactions is killed with SIGKILL mid-batch: every committed
/// transaction must survive whole, and no partial one may appear.
@Suite struct CrashSafetyTests {
    struct BatchTable: Table {
        let database: Database
        let name = "batch_row"
        let primaryKey = "id"
        let columns = [Column("id", .integer), Column("batch", .integer, notNull: true), Column("payload", .text)]
        let indexes = [TableIndex("batch_row_batch", on: ["batch"])]
    }

    /// The writer executable, built next to the test bundle.
    static var writer: URL? {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [folder, folder.deletingLastPathComponent()].map {
            $0.appendingPathComponent("PersistenceCrashWriter")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test func aKilledWriterLeavesOnlyWholeTransactions() throws {
        let writer = try #require(Self.writer, "PersistenceCrashWriter was not built next to the tests")
        let folder = TemporaryFolder()
        let path = folder.path("crash.sqlite")
        let rowsPerBatch = 200
        for round in 0..<3 {
            let process = Process()
            process.executableURL = writer
            process.arguments = [path, String(rowsPerBatch)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Let it commit a few batches (more each round), then kill it mid-write.
            var reported = -1
            var buffer = Data()
            let deadline = Date().addingTimeInterval(20)
            let target = (round + 1) * 5
            while reported < target, Date() < deadline {
                buffer += output.fileHandleForReading.availableData
                let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
                reported = lines.last.flatMap { Int($0) } ?? reported
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(reported >= target, "the writer reported batch \(reported)")

            let table = BatchTable(database: DatabaseRegistry().database(at: path))
            let counts = try table.database.fetch("SELECT batch, count(*) AS n FROM batch_row GROUP BY batch")
            let partial = counts.filter { $0["n"]?.intValue != rowsPerBatch }
            #expect(partial.isEmpty, "partial batches: \(partial)")
            // Every batch reported as committed is there, and nothing else is missing.
            let batches = Set(counts.compactMap { $0["batch"]?.intValue })
            #expect(batches == Set(0..<batches.count), "batches are not contiguous: \(batches.sorted())")
            #expect(batches.count >= reported + 1)
        }
    }
}
