// What the signals, networking and persistence benchmarks share: their options, medians,
// counting allocations, and the allocation thresholds CI checks (Thresholds.swift).
import Foundation

/// What a threshold run does with the file it is given.
public enum ThresholdMode: Sendable, Equatable {
    /// Measure every scenario and fail when a count exceeds the file's.
    case check(path: String)
    /// Measure every scenario and write the counts as the new thresholds.
    case write(path: String)

    public var path: String {
        switch self {
        case .check(let path), .write(let path): path
        }
    }
}

/// The options every benchmark takes, and those it adds of its own.
public struct BenchmarkOptions: Sendable {
    /// Runs of each side per scenario; the medians are reported.
    public var runs: Int
    /// Multiplies the work of every scenario.
    public var scale = 1.0
    /// `floor` or `library` to run one side only (for profiles and instruction counts).
    public var only: String?
    /// The scenarios named on the command line, normalized; empty means every scenario.
    public var scenarios: [String] = []
    /// Set by `--check-thresholds` or `--write-thresholds`.
    public var thresholds: ThresholdMode?
    /// The values of a benchmark's own options (`valued` of `parse`), by option.
    public var values: [String: String] = [:]

    /// Whether the floor runs (not in a threshold run, which measures the library only).
    public var runsFloor: Bool { thresholds == nil && only != "library" }
    /// Whether the library runs.
    public var runsLibrary: Bool { only != "floor" }

    /// Parses the command line, exiting with the usage on `--help` or a mistake.
    ///
    /// - Parameters:
    ///   - program: the executable's name, for messages.
    ///   - defaultRuns: `--runs` when not given.
    ///   - valued: a benchmark's own options that take a value, with their defaults.
    ///   - usage: the scenarios and own options, appended to the common usage line.
    ///   - scenario: normalizes a scenario name, or returns nil when there is none such.
    public static func parse(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()), program: String, defaultRuns: Int,
        valued: [String: String] = [:], usage: String, scenario: (String) -> String?
    ) -> BenchmarkOptions {
        var options = BenchmarkOptions(runs: defaultRuns, values: valued)
        var iterator = arguments.makeIterator()
        func fail(_ problem: String?) -> Never {
            if let problem { FileHandle.standardError.write(Data("\(program): \(problem)\n".utf8)) }
            print(
                "usage: \(program) [--runs N] [--scale X] [--only floor|library] "
                    + "[--check-thresholds FILE | --write-thresholds FILE] \(usage)")
            exit(problem == nil ? 0 : 2)
        }
        func value(of option: String) -> String {
            guard let value = iterator.next() else { fail("\(option) takes a value") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--runs":
                guard let runs = Int(value(of: argument)), runs > 0 else { fail("--runs takes a positive count") }
                options.runs = runs
            case "--scale":
                guard let scale = Double(value(of: argument)), scale > 0 else {
                    fail("--scale takes a positive number")
                }
                options.scale = scale
            case "--only":
                let side = value(of: argument)
                guard side == "floor" || side == "library" else { fail("--only takes floor or library") }
                options.only = side
            case "--check-thresholds": options.thresholds = .check(path: value(of: argument))
            case "--write-thresholds": options.thresholds = .write(path: value(of: argument))
            case "--help", "-h": fail(nil)
            case _ where valued[argument] != nil: options.values[argument] = value(of: argument)
            case _ where argument.hasPrefix("-"): fail("no option \(argument)")
            default:
                guard let name = scenario(argument) else { fail("no scenario \(argument)") }
                options.scenarios.append(name)
            }
        }
        if options.thresholds != nil, options.only == "floor" || !options.scenarios.isEmpty {
            fail("a threshold run measures every scenario's library side; name no scenario and no side")
        }
        if options.thresholds != nil { hashDeterministically() }
        return options
    }
}

/// Starts the process again with `SWIFT_DETERMINISTIC_HASHING` set, unless it is set.
///
/// Swift seeds `Hasher` per process, so a dictionary's order changes from run to run, and
/// with it how often code that walks one may allocate: networking-bench's calls made 220
/// or 226 allocations per call (debug) depending on the process, and always 226 with the
/// seed fixed. A threshold run must count the same every time.
func hashDeterministically() {
    guard ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == nil else { return }
    setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    FileHandle.standardError.write(Data("cannot restart with deterministic hashing: errno \(errno)\n".utf8))
    exit(2)
}

/// The median of `values` (the mean of the middle two for an even count), NaN when empty.
public func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Nanoseconds since an arbitrary start, for timing.
public func nowNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
