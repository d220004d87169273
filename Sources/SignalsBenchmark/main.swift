// signals-bench: release-mode figures for the Signals core.
//
//   swift run -c release signals-bench            all scenarios, median of 5 runs
//   swift run -c release signals-bench A D        chosen scenarios
//   swift run -c release signals-bench --scale 0.01 --runs 1 A   reduced run (callgrind)
import AllocationCounter
import Foundation
import Signals

// Safe to share: written by one delivery at a time (signals deliver serially) and read after the run.
final class Sink: @unchecked Sendable {
    var total = 0
}

struct Measurement {
    let nanosecondsPerEvent: Double
    let allocationsPerEvent: Double
}

struct Options {
    var scale = 1.0
    var runs = 5
    var chosen: Set<String> = []

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--scale": options.scale = iterator.next().flatMap(Double.init) ?? 1
            case "--runs": options.runs = max(1, iterator.next().flatMap { Int($0) } ?? 5)
            default: options.chosen.insert(argument.uppercased())
            }
        }
        return options
    }
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let scale = options.scale
let runs = options.runs
let chosen = options.chosen

func count(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }

/// Runs `body` (which performs `events` events) and reports time and allocations per event.
func measure(events: Int, _ body: () -> Void) -> Measurement {
    let allocationsBefore = allocation_count()
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    let allocations = allocation_count() - allocationsBefore
    return Measurement(
        nanosecondsPerEvent: Double(elapsed) / Double(events),
        allocationsPerEvent: Double(allocations) / Double(events)
    )
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func report(_ name: String, _ title: String, target: String, _ run: () -> Measurement) {
    guard chosen.isEmpty || chosen.contains(name) else { return }
    var results: [Measurement] = []
    for _ in 0..<runs { results.append(run()) }
    let time = median(results.map(\.nanosecondsPerEvent))
    let allocations = median(results.map(\.allocationsPerEvent))
    let line = "\(name)  \(title.padding(toLength: 46, withPad: " ", startingAt: 0))"
        + String(format: "%10.1f ns/event  %6.3f allocs/event  (target %@)", time, allocations, target)
    print(line)
}

let sink = Sink()

report("A", "map -> filter -> scan, 10M sends", target: "<= 125 ns, 0 allocs") {
    let (signal, input) = Signal<Int>.pipe()
    let sends = count(10_000_000)
    let subscription = signal
        .map { $0 &+ 1 }
        .filter { $0 & 1 == 0 }
        .scan(0) { $0 &+ $1 }
        .observe { sink.total = $0 }
    defer { subscription.dispose() }
    return measure(events: sends) {
        for value in 0..<sends { input.send(value) }
    }
}

report("B", "fan-out to 100 observers, 1M sends", target: "<= 6,000 ns") {
    let (signal, input) = Signal<Int>.pipe()
    let sends = count(1_000_000)
    let subscriptions = (0..<100).map { _ in signal.observe { sink.total &+= $0 } }
    defer { subscriptions.forEach { $0.dispose() } }
    return measure(events: sends) {
        for value in 0..<sends { input.send(value) }
    }
}

report("C", "subscribe + dispose, 1M times", target: "<= 400 ns, <= 3 allocs") {
    let (signal, input) = Signal<Int>.pipe()
    let times = count(1_000_000)
    let result = measure(events: times) {
        for _ in 0..<times {
            signal.observe { sink.total = $0 }.dispose()
        }
    }
    withExtendedLifetime(input) {}
    return result
}

report("D", "combineLatest(a, b) -> map, 5M sends", target: "<= 110 ns, 0 allocs") {
    let (first, firstInput) = Signal<Int>.pipe()
    let (second, secondInput) = Signal<Int>.pipe()
    let sends = count(5_000_000)
    let subscription = Signal.combineLatest(first, second)
        .map { $0 &+ $1 }
        .observe { sink.total = $0 }
    defer { subscription.dispose() }
    firstInput.send(0)
    secondInput.send(0)
    return measure(events: sends) {
        var value = 0
        while value < sends {
            firstInput.send(value)
            secondInput.send(value &+ 1)
            value += 2
        }
    }
}

report("E", "MutableProperty, 10 observers, 1M sets", target: "<= 600 ns, 0 allocs") {
    let property = MutableProperty(0)
    let sets = count(1_000_000)
    let subscriptions = (0..<10).map { _ in property.observe { sink.total &+= $0 } }
    defer { subscriptions.forEach { $0.dispose() } }
    return measure(events: sets) {
        for value in 0..<sets { property.value = value }
    }
}

if chosen.isEmpty || chosen.contains("F") {
    let (signal, input) = Signal<Int>.pipe()
    let live = count(1_000_000)
    var subscriptions: [Disposable] = []
    subscriptions.reserveCapacity(live)
    let bytesBefore = allocated_bytes()
    let allocationsBefore = allocation_count()
    for _ in 0..<live {
        subscriptions.append(signal.observe { sink.total = $0 })
    }
    let bytes = Double(allocated_bytes() - bytesBefore) / Double(live)
    let allocations = Double(allocation_count() - allocationsBefore) / Double(live)
    input.send(1)
    print("F  " + "bytes per live subscription, 1M kept alive".padding(toLength: 46, withPad: " ", startingAt: 0)
          + String(format: "%10.1f bytes     %6.3f allocs/subscribe (target <= 200 bytes)", bytes, allocations))
    withExtendedLifetime(subscriptions) {}
}

if sink.total == 42 { print("") }
