// What the benchmarks share: their options, running floor and library alternately, medians,
// measuring and counting allocations (Sample.swift), and the allocation thresholds CI
// checks (Thresholds.swift).
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

/// The options a benchmark takes besides `--runs` and `--help`.
public struct CommonOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `--scale X`.
    public static let scale = CommonOptions(rawValue: 1)
    /// `--only floor|library`.
    public static let sides = CommonOptions(rawValue: 2)
    /// `--check-thresholds FILE` and `--write-thresholds FILE`.
    public static let thresholds = CommonOptions(rawValue: 4)
    /// Scenario names.
    public static let scenarios = CommonOptions(rawValue: 8)
    public static let all: CommonOptions = [.scale, .sides, .thresholds, .scenarios]
}

/// The options every benchmark takes, and those it adds of its own.
public struct BenchmarkOptions: Sendable {
    /// Runs of each side per scenario; the medians are reported.
    public var runs: Int
    /// Multiplies the work of every scenario.
    public var scale = 1.0
    /// `floor` or `library` to run one side only (for profiles and instruction counts);
    /// `library` whatever the benchmark calls that side on its command line.
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

    /// The executable's name and its usage line, for `fail(_:)`.
    private var program = ""
    private var usage = ""

    /// Whether scenario `name` runs: every scenario when none was named, else `name` or
    /// its letters (`G` chooses `G4` and `G16`).
    public func isChosen(_ name: String) -> Bool {
        scenarios.isEmpty || scenarios.contains(name) || scenarios.contains(String(name.prefix { $0.isLetter }))
    }

    /// Runs `floor` and `library` alternately, `runs` times each (which goes first
    /// alternates too, so that neither always runs on a warmer machine), each side only
    /// when it runs (`--only`), and returns what each run returned.
    public func alternate<Result>(floor: () throws -> Result, library: () throws -> Result) rethrows -> (
        floors: [Result], libraries: [Result]
    ) {
        var floors: [Result] = []
        var libraries: [Result] = []
        for run in 0..<runs {
            let floorFirst = run % 2 == 0
            if floorFirst, runsFloor { floors.append(try floor()) }
            if runsLibrary { libraries.append(try library()) }
            if !floorFirst, runsFloor { floors.append(try floor()) }
        }
        return (floors, libraries)
    }

    /// The value of a benchmark's own numeric option, nil when it is empty (given no
    /// default and not on the command line); exits with the usage when it is not a number
    /// of at least `minimum`.
    public func number<Number: LosslessStringConvertible & Comparable>(_ option: String, atLeast minimum: Number)
        -> Number?
    {
        guard let text = values[option], !text.isEmpty else { return nil }
        guard let number = Number(text), number >= minimum else {
            fail("\(option) takes a number of at least \(minimum)")
        }
        return number
    }

    /// Prints `problem` and the usage, and exits: 0 without a problem (`--help`), else 2.
    public func fail(_ problem: String?) -> Never {
        if let problem { FileHandle.standardError.write(Data("\(program): \(problem)\n".utf8)) }
        print(usage)
        exit(problem == nil ? 0 : 2)
    }

    /// Parses the command line, exiting with the usage on `--help` or a mistake.
    ///
    /// - Parameters:
    ///   - program: the executable's name, for messages.
    ///   - defaultRuns: `--runs` when not given.
    ///   - takes: the common options the benchmark takes besides `--runs`.
    ///   - library: what `--only` calls the library side besides `library` (normalized to
    ///     `library`).
    ///   - valued: a benchmark's own options that take a value, with their defaults (empty
    ///     for none).
    ///   - usage: the scenarios and own options, appended to the common usage line.
    ///   - scenario: normalizes a scenario name, or returns nil when there is none such.
    public static func parse(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()), program: String, defaultRuns: Int,
        takes: CommonOptions = .all, library: String = "library", valued: [String: String] = [:], usage: String,
        scenario: (String) -> String? = { _ in nil }
    ) -> BenchmarkOptions {
        var options = BenchmarkOptions(runs: defaultRuns, values: valued)
        options.program = program
        options.usage =
            "usage: \(program) [--runs N]" + (takes.contains(.scale) ? " [--scale X]" : "")
            + (takes.contains(.sides) ? " [--only floor|\(library)]" : "")
            + (takes.contains(.thresholds) ? " [--check-thresholds FILE | --write-thresholds FILE]" : "")
            + (usage.isEmpty ? "" : " \(usage)")
        var iterator = arguments.makeIterator()
        func value(of option: String) -> String {
            guard let value = iterator.next() else { options.fail("\(option) takes a value") }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--runs":
                guard let runs = Int(value(of: argument)), runs > 0 else {
                    options.fail("--runs takes a positive count")
                }
                options.runs = runs
            case "--scale" where takes.contains(.scale):
                guard let scale = Double(value(of: argument)), scale > 0 else {
                    options.fail("--scale takes a positive number")
                }
                options.scale = scale
            case "--only" where takes.contains(.sides):
                let side = value(of: argument)
                guard side == "floor" || side == "library" || side == library else {
                    options.fail("--only takes floor or \(library)")
                }
                options.only = side == "floor" ? "floor" : "library"
            case "--check-thresholds" where takes.contains(.thresholds):
                options.thresholds = .check(path: value(of: argument))
            case "--write-thresholds" where takes.contains(.thresholds):
                options.thresholds = .write(path: value(of: argument))
            case "--help", "-h": options.fail(nil)
            case _ where valued[argument] != nil: options.values[argument] = value(of: argument)
            case _ where argument.hasPrefix("-"): options.fail("no option \(argument)")
            default:
                guard takes.contains(.scenarios), let name = scenario(argument) else {
                    options.fail("no scenario \(argument)")
                }
                options.scenarios.append(name)
            }
        }
        if options.thresholds != nil, options.only == "floor" || !options.scenarios.isEmpty {
            options.fail("a threshold run measures every scenario's library side; name no scenario and no side")
        }
        if options.thresholds != nil { hashDeterministically() }
        if options.runsFloor { print(machineLine()) }
        return options
    }
}

/// The machine a run of ratios is measured on, printed before them: the same code measures
/// very differently on another processor (twice the ratios of A, D and DP on an AMD EPYC
/// whose locks cost half as much; Docs/Benchmarks.md, "On another machine"), so a figure
/// copied from the output carries its machine.
func machineLine() -> String {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        .flatMap { $0.split(separator: ":", maxSplits: 1).last }?.trimmingCharacters(in: .whitespaces)
    let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first
    return "machine: \(model ?? "processor unknown"), \(ProcessInfo.processInfo.activeProcessorCount) cores"
        + (load.map { ", load average \($0)" } ?? "")
}

/// Starts the process again with `SWIFT_DETERMINISTIC_HASHING` set, unless it is set.
///
/// Swift seeds `Hasher` per process, so a dictionary's order changes from run to run, and
/// with it how often code that walks one may allocate: networking-bench's calls made 220
/// or 226 allocations per call (debug) depending on the process, and always 226 with the
/// seed fixed. A threshold run must count the same every time.
///
/// It reads the variable with `getenv`: `ProcessInfo.processInfo.environment` copies the
/// whole environment onto the heap, which moved later allocations by the environment's
/// size, and with them, by one, how many allocations editor-bench's V300 and R2K counted
/// (how much room glibc gives a block depends on the free blocks around it).
func hashDeterministically() {
    guard getenv("SWIFT_DETERMINISTIC_HASHING") == nil else { return }
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
