// Timing a run of a side and counting its heap allocations.
import Foundation

/// Nanoseconds since an arbitrary start, for timing.
public func nowNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// One run of one side: the events it did, its time and its heap allocations.
public struct Sample: Sendable {
    public var events: Int
    public var nanoseconds: UInt64
    /// Heap allocations made while the events ran (by every thread).
    public var allocations: Int

    public init(events: Int, nanoseconds: UInt64, allocations: Int) {
        self.events = events
        self.nanoseconds = nanoseconds
        self.allocations = allocations
    }

    public var nanosecondsPerEvent: Double { Double(nanoseconds) / Double(events) }
    public var allocationsPerEvent: Double { Double(allocations) / Double(events) }
}

/// Runs `body` (which performs `events` events) and reports its time and allocations.
public func measure(events: Int, _ body: () throws -> Void) rethrows -> Sample {
    let allocationsBefore = allocationsSoFar()
    let start = nowNanoseconds()
    try body()
    let elapsed = nowNanoseconds() - start
    let allocations = Int(allocationsSoFar() - allocationsBefore)
    return Sample(events: events, nanoseconds: elapsed, allocations: allocations)
}

/// The medians of a scenario's runs: each side's time per event, and the library's
/// allocations per event.
public struct Medians: Sendable {
    public var floor: Double
    public var library: Double
    public var allocations: Double

    /// Library / floor.
    public var ratio: Double { library / floor }
}

extension BenchmarkOptions {
    /// Runs scenario `name` if it is chosen. In a threshold run, records the allocations of
    /// its library side (unless `counted` is false) and returns nil; otherwise runs the
    /// sides alternately (`alternate`) and returns their medians, for the benchmark to print.
    public func compare(
        _ name: String, counted: Bool = true, thresholdRun: ThresholdRun?, floor: () -> Sample,
        library: () -> Sample
    ) -> Medians? {
        guard isChosen(name) else { return nil }
        if let thresholdRun {
            if counted { thresholdRun.measure(name, side: library) }
            return nil
        }
        let (floors, libraries) = alternate(floor: floor, library: library)
        return Medians(
            floor: median(floors.map(\.nanosecondsPerEvent)), library: median(libraries.map(\.nanosecondsPerEvent)),
            allocations: median(libraries.map(\.allocationsPerEvent)))
    }
}
