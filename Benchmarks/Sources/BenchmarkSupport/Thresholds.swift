// Allocation thresholds: each benchmark counts the heap allocations of its library side
// per scenario over a fixed amount of work, and CI fails when a count grows past the one
// in Benchmarks/Thresholds/<benchmark>.json (Docs/Benchmarks.md, "Thresholds").
import AllocationCounter
import Foundation

/// Heap allocations (malloc, calloc, realloc, aligned) made by every thread while `body` runs.
public func countAllocations(_ body: () throws -> Void) rethrows -> Int {
    let before = allocation_count()
    try body()
    return Int(allocation_count() - before)
}

/// Heap allocations made since the process started.
public func allocationsSoFar() -> UInt64 { allocation_count() }

/// Bytes allocated and not freed, as glibc reports them.
public func bytesAllocatedNow() -> UInt64 { allocated_bytes() }

/// One scenario's line of a thresholds file.
public struct AllocationThreshold: Codable, Equatable, Sendable {
    /// The work the count is over (sends, calls, rows...), fixed by the benchmark.
    public var events: Int
    /// The most heap allocations the library side may make over `events`.
    public var allocations: Int

    public init(events: Int, allocations: Int) {
        self.events = events
        self.allocations = allocations
    }
}

/// A thresholds file: the build it was written by, and a threshold per scenario.
public struct AllocationThresholds: Codable, Equatable, Sendable {
    /// `debug` or `release`: the same code allocates differently in each (an unoptimized
    /// build boxes and copies more), so a file is checked only by the build that wrote it.
    public var build: String
    public var scenarios: [String: AllocationThreshold]

    /// The build this process was compiled in.
    public static var currentBuild: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }
}

/// Collects a threshold run's counts, then checks them against the file or writes it.
public final class ThresholdRun {
    public let mode: ThresholdMode
    private let program: String
    private var measured: [(scenario: String, count: AllocationThreshold)] = []

    /// - Parameters:
    ///   - mode: check the file, or write it.
    ///   - program: the executable's name, for messages.
    public init(_ mode: ThresholdMode, program: String) {
        self.mode = mode
        self.program = program
    }

    /// Records `scenario`'s count of `allocations` over `events`.
    public func record(_ scenario: String, events: Int, allocations: Int) {
        measured.append((scenario, AllocationThreshold(events: events, allocations: allocations)))
    }

    /// Runs the library side of `scenario` once to warm up, then three times, and records
    /// the fewest allocations of those three. The warm-up pays what a process pays once
    /// (generic metadata, lazy globals, caches), so the count does not depend on which
    /// scenarios ran before; the fewest leaves out an allocation another thread (dispatch,
    /// Foundation) makes now and then, which only ever adds.
    ///
    /// - Parameter run: runs the side once; returns the events done and the allocations
    ///   counted around them (set-up left out).
    public func measure(_ scenario: String, _ run: () throws -> (events: Int, allocations: Int)) rethrows {
        _ = try run()
        var fewest = try run()
        for _ in 0..<2 {
            let next = try run()
            if next.allocations < fewest.allocations { fewest = next }
        }
        record(scenario, events: fewest.events, allocations: fewest.allocations)
    }

    /// Runs `side`, the library side of `scenario`, and records the allocations of its
    /// sample (as `measure(_:_:)`).
    public func measure(_ scenario: String, side: () throws -> Sample) rethrows {
        try measure(scenario) {
            let sample = try side()
            return (sample.events, sample.allocations)
        }
    }

    /// Runs `body`, `events` events of the library side of `scenario`, and records its
    /// allocations (as `measure(_:_:)`).
    public func measure(_ scenario: String, events: Int, _ body: () throws -> Void) rethrows {
        try measure(scenario) { (events, try countAllocations(body)) }
    }

    /// Checks or writes the file, prints the table, and exits: 0 when every count is
    /// within its threshold (or the file was written), 1 otherwise.
    public func finish() -> Never {
        switch mode {
        case .write(let path): write(path)
        case .check(let path): check(path)
        }
    }

    private var writeCommand: String {
        "\(CommandLine.arguments[0]) --write-thresholds \(mode.path)"
    }

    private func read(_ path: String) throws -> AllocationThresholds {
        try JSONDecoder().decode(AllocationThresholds.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private func write(_ path: String) -> Never {
        // Printed against the file it replaces, so the change shows.
        printTable(thresholds: (try? read(path))?.scenarios ?? [:])
        let thresholds = AllocationThresholds(
            build: AllocationThresholds.currentBuild,
            scenarios: Dictionary(measured.map { ($0.scenario, $0.count) }, uniquingKeysWith: { $1 }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try (encoder.encode(thresholds) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
        } catch {
            stop("cannot write \(path): \(error)")
        }
        print("\(program): wrote \(measured.count) thresholds of a \(thresholds.build) build to \(path)")
        exit(0)
    }

    private func check(_ path: String) -> Never {
        let file: AllocationThresholds
        do {
            file = try read(path)
        } catch {
            stop("cannot read the thresholds in \(path): \(error)")
        }
        guard file.build == AllocationThresholds.currentBuild else {
            stop(
                "\(path) holds the counts of a \(file.build) build and this is a \(AllocationThresholds.currentBuild) "
                    + "build; check it with the \(file.build) build (Benchmarks/.build/\(file.build)/\(program))")
        }
        let thresholds = file.scenarios
        var problems = printTable(thresholds: thresholds)
        let measuredNames = Set(measured.map(\.scenario))
        let stale = thresholds.keys.filter { !measuredNames.contains($0) }.sorted()
        if !stale.isEmpty {
            problems.append("\(path) has thresholds for no scenario: \(stale.joined(separator: ", "))")
        }
        let lower = measured.filter { $0.count.allocations < thresholds[$0.scenario]?.allocations ?? 0 }
        if !lower.isEmpty {
            print(
                "\(program): \(lower.map(\.scenario).joined(separator: ", ")) allocated less than the threshold; "
                    + "lower it so that the gain is kept: \(writeCommand)")
        }
        guard problems.isEmpty else {
            for problem in problems { print("\(program): FAILED \(problem)") }
            print(
                """
                \(program): the allocation check against \(path) failed.
                  A count is exact: the same build makes the same allocations every run, so
                  a count above its threshold is a change in the code, not noise. Find it
                  (the scenario names the path) and remove the allocation; or, if the growth
                  (or the change of scenarios) is intended, write the new counts and commit
                  the file, saying why (Docs/Benchmarks.md, "Allocation thresholds"):
                    \(writeCommand)
                """)
            exit(1)
        }
        print("\(program): every allocation count is within its threshold in \(path)")
        exit(0)
    }

    /// Prints measured against threshold; returns what fails a check (a count above its
    /// threshold, a changed amount of work, a scenario without a threshold).
    @discardableResult
    private func printTable(thresholds: [String: AllocationThreshold]) -> [String] {
        var problems: [String] = []
        print("scenario          events  allocations  threshold  per event")
        for (scenario, count) in measured {
            let threshold = thresholds[scenario]
            let verdict: String
            switch threshold {
            case nil:
                verdict = mode == .write(path: mode.path) ? "new" : "no threshold"
                problems.append("\(scenario): no threshold in the file")
            case let threshold? where threshold.events != count.events:
                verdict = "work changed"
                problems.append(
                    "\(scenario): the threshold counts \(threshold.events) events, the benchmark now does "
                        + "\(count.events)")
            case let threshold? where count.allocations > threshold.allocations:
                let excess = count.allocations - threshold.allocations
                verdict = "EXCEEDED by \(excess)"
                problems.append(
                    "\(scenario): \(count.allocations) allocations over \(count.events) events, threshold "
                        + "\(threshold.allocations): \(excess) more, "
                        + String(format: "%.3f per event", Double(excess) / Double(count.events)))
            case let threshold? where count.allocations < threshold.allocations: verdict = "lower"
            case _?: verdict = "ok"
            }
            let limit = threshold.map { String($0.allocations) } ?? "-"
            print(
                scenario.padding(toLength: 15, withPad: " ", startingAt: 0) + pad(String(count.events), 9)
                    + pad(String(count.allocations), 13) + pad(limit, 11)
                    + pad(String(format: "%.3f", Double(count.allocations) / Double(count.events)), 11) + "  "
                    + verdict)
        }
        return problems
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private func stop(_ problem: String) -> Never {
        FileHandle.standardError.write(Data("\(program): \(problem)\n".utf8))
        exit(2)
    }
}
