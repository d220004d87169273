// signals-bench: the Signals core against the floor, in one process.
//
// Every scenario runs twice per rep, interleaved: the floor (the same work written by
// hand: closures behind one lock per source, no library) and the library. The figure
// kept is the ratio of their medians, which holds on a noisy machine where absolute
// times do not.
//
//   swift run -c release --package-path Benchmarks signals-bench                 every scenario, 7 reps
//   swift run -c release --package-path Benchmarks signals-bench A D             chosen scenarios
//   swift run -c release --package-path Benchmarks signals-bench --runs 3 --scale 0.1 G H
//   swift run -c release --package-path Benchmarks signals-bench --scale 0.01 --runs 1 --only library A   (callgrind)
//   signals-bench --check-thresholds Benchmarks/Thresholds/signals-bench.json   (CI: allocation counts)
import BenchmarkSupport
import Foundation
import Signals
import Synchronization

// Safe to share: written by one delivery at a time (signals and floors deliver serially)
// and read after the run.
final class Sink: @unchecked Sendable {
    var total = 0
}

let sink = Sink()

// MARK: - Options

let scenarioNames: Set = ["A", "B", "C", "D", "DP", "E", "F", "M", "P", "G4", "G16", "H4", "H16"]
let options = BenchmarkOptions.parse(
    program: "signals-bench", defaultRuns: 7, valued: ["--floor-lock": "pthread"],
    usage: "[--floor-lock pthread|mutex] [A B C D DP E F M P G4 G16 H4 H16 G H]"
) { name in
    // G and H choose both thread counts.
    scenarioNames.contains(name.uppercased()) || ["G", "H"].contains(name.uppercased()) ? name.uppercased() : nil
}
/// The lock of the contention scenarios' floors: `pthread` or `mutex`.
let floorLock = options.values["--floor-lock"] ?? "pthread"

/// A threshold run counts the library's allocations at this scale (10,000 sends for A),
/// whatever `--scale` says, so that the counts in the file stay comparable.
let thresholdScale = 0.001
let thresholdRun = options.thresholds.map { ThresholdRun($0, program: "signals-bench") }
let scale = thresholdRun == nil ? options.scale : thresholdScale

func count(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }

/// Runs floor and library alternately `runs` times (which goes first alternates too) and
/// prints the medians and their ratio.
///
/// In a threshold run it runs the library side only (`ThresholdRun.measure`) and records its
/// allocations, unless the scenario is `counted: false` (its count depends on how threads
/// interleave).
@MainActor
func compare(
    _ name: String, _ title: String, goal: String, counted: Bool = true,
    floor: () -> Sample, library: () -> Sample
) {
    guard
        let medians = options.compare(
            name, counted: counted, thresholdRun: thresholdRun, floor: floor, library: library)
    else { return }
    let line =
        name.padding(toLength: 4, withPad: " ", startingAt: 0)
        + title.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(
            format: "floor %8.1f ns  library %8.1f ns  ratio %5.2fx  %5.2f allocs/event  (goal %@)",
            medians.floor, medians.library, medians.ratio, medians.allocations, goal)
    print(line)
}

// MARK: - The floor: hand-written closures, one lock per source

/// The lock a floor holds: the standard library's `Mutex` (5 ns uncontended here), or a
/// plain `pthread_mutex_t` for the contention scenarios, where `Mutex` (priority-inheritance
/// futexes on Linux) hands the lock from thread to thread through the kernel and takes
/// microseconds per send.
protocol FloorLock<Value>: Sendable {
    associatedtype Value
    init(_ value: sending Value)
    func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result
}

/// `Synchronization.Mutex` as a floor lock.
final class StandardMutex<Value>: FloorLock, Sendable {
    private let mutex: Mutex<Value>
    init(_ value: sending Value) { mutex = Mutex(value) }
    @inline(__always)
    func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result {
        mutex.withLock(body)
    }
}

/// A `pthread_mutex_t` as a floor lock.
// Safe to share: `value` is touched only while `mutex` is held.
final class PthreadMutex<Value>: FloorLock, @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value
    init(_ value: sending Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    @inline(__always)
    func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}

/// A source written by hand: its observers behind one lock, taken once per send and held
/// while they run (which is how deliveries are kept serial without a queue).
final class FloorSource<Value: Sendable, Lock: FloorLock>: Sendable where Lock.Value == [FloorSubscription<Value>] {
    private let observers = Lock([])

    init() {}

    func add(_ observer: @escaping @Sendable (Value) -> Void) -> FloorSubscription<Value> {
        let subscription = FloorSubscription(observer)
        observers.withLock { $0.append(subscription) }
        return subscription
    }

    func remove(_ subscription: FloorSubscription<Value>) {
        observers.withLock { list in
            if let index = list.lastIndex(where: { $0 === subscription }) { list.remove(at: index) }
        }
    }

    func send(_ value: Value) {
        observers.withLock { list in
            list.withUnsafeBufferPointer { list in
                for index in list.indices { list[index].observer(value) }
            }
        }
    }
}

/// What a hand-written `subscribe` hands back: an object to unsubscribe with.
final class FloorSubscription<Value: Sendable>: Sendable {
    let observer: @Sendable (Value) -> Void
    init(_ observer: @escaping @Sendable (Value) -> Void) { self.observer = observer }
}

/// A hand-written property's state: its value and observers.
struct FloorPropertyState<Value: Sendable> {
    var value: Value
    var observers: [@Sendable (Value) -> Void] = []
}

/// A hand-written property: its value and observers behind one lock.
final class FloorProperty<Value: Sendable, Lock: FloorLock>: Sendable where Lock.Value == FloorPropertyState<Value> {
    private let state: Lock

    init(_ value: Value, _ lock: Lock.Type) {
        state = Lock(FloorPropertyState(value: value))
    }

    func add(_ observer: @escaping @Sendable (Value) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    func set(_ value: Value) {
        state.withLock { state in
            state.value = value
            for observer in state.observers { observer(value) }
        }
    }
}

/// A's floor: map, filter and scan as closures behind one source's lock.
func mapFilterScanFloor() -> Sample {
    let source = FloorSource<Int, StandardMutex>()
    let accumulated = Sink()
    let scan: @Sendable (Int) -> Void = { value in
        accumulated.total = accumulated.total &+ value
        sink.total = accumulated.total
    }
    let filter: @Sendable (Int) -> Void = { value in if value & 1 == 0 { scan(value) } }
    _ = source.add { filter($0 &+ 1) }
    let sends = count(10_000_000)
    return measure(events: sends) {
        for value in 0..<sends { source.send(value) }
    }
}

/// The floor of a combination: the two latest values in cells a closure reads, behind
/// one more lock (each source's own lock is held around it), so that it is thread-safe as
/// a combination must be; both sources have sent before it is measured.
final class FloorCells: Sendable {
    private struct Cells {
        var first = 0
        var second = 0
    }

    private let cells = Mutex(Cells())

    @inline(__always)
    func first(_ value: Int) {
        cells.withLock { cells in
            cells.first = value
            sink.total = cells.first &+ cells.second
        }
    }

    @inline(__always)
    func second(_ value: Int) {
        cells.withLock { cells in
            cells.second = value
            sink.total = cells.first &+ cells.second
        }
    }
}

/// Two sources by hand, each behind its own lock, feeding `FloorCells`.
func combinationFloor() -> Sample {
    let first = FloorSource<Int, StandardMutex>()
    let second = FloorSource<Int, StandardMutex>()
    let cells = FloorCells()
    _ = first.add { cells.first($0) }
    _ = second.add { cells.second($0) }
    let sends = count(5_000_000)
    return measure(events: sends) {
        var value = 0
        while value < sends {
            first.send(value)
            second.send(value &+ 1)
            value += 2
        }
    }
}

// MARK: - Threads for the contention scenarios

/// Runs `body(thread)` on `threads` threads started together; returns the nanoseconds
/// from the start signal until the last one finished.
func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) -> UInt64 {
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let gate = DispatchSemaphore(value: 0)
    for index in 0..<threads {
        ready.enter()
        done.enter()
        let thread = Thread {
            ready.leave()
            gate.wait()
            body(index)
            done.leave()
        }
        thread.start()
    }
    ready.wait()
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<threads { gate.signal() }
    done.wait()
    return DispatchTime.now().uptimeNanoseconds - start
}

// MARK: - Scenarios

compare("A", "map -> filter -> scan, 10M sends", goal: "<= 1.5x, 0 allocs") {
    mapFilterScanFloor()
} library: {
    let (signal, input) = Signal<Int>.pipe()
    let sends = count(10_000_000)
    let subscription =
        signal
        .map { $0 &+ 1 }
        .filter { $0 & 1 == 0 }
        .scan(0) { $0 &+ $1 }
        .observe { sink.total = $0 }
    defer { subscription.dispose() }
    return measure(events: sends) {
        for value in 0..<sends { input.send(value) }
    }
}

compare("B", "fan-out to 100 observers, 1M sends", goal: "<= 1.1x") {
    let source = FloorSource<Int, StandardMutex>()
    for _ in 0..<100 { _ = source.add { sink.total &+= $0 } }
    let sends = count(1_000_000)
    return measure(events: sends) {
        for value in 0..<sends { source.send(value) }
    }
} library: {
    let (signal, input) = Signal<Int>.pipe()
    let sends = count(1_000_000)
    let subscriptions = (0..<100).map { _ in signal.observe { sink.total &+= $0 } }
    defer { subscriptions.forEach { $0.dispose() } }
    return measure(events: sends) {
        for value in 0..<sends { input.send(value) }
    }
}

compare("C", "subscribe + dispose, 1M times", goal: "<= 1.1x") {
    let source = FloorSource<Int, StandardMutex>()
    let times = count(1_000_000)
    return measure(events: times) {
        for _ in 0..<times {
            source.remove(source.add { sink.total = $0 })
        }
    }
} library: {
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

compare("D", "combineLatest(a, b) -> map, 5M sends", goal: "<= 1.3x, 0 allocs") {
    combinationFloor()
} library: {
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

compare("DP", "Property.combineLatest(a, b).map, 5M sets", goal: "<= 1.3x, 0 allocs") {
    combinationFloor()
} library: {
    let first = MutableProperty(0)
    let second = MutableProperty(0)
    let sends = count(5_000_000)
    let subscription = Property.combineLatest(first, second)
        .map { $0 &+ $1 }
        .signal.observe { sink.total = $0 }
    defer { subscription.dispose() }
    return measure(events: sends) {
        var value = 0
        while value < sends {
            first.value = value
            second.value = value &+ 1
            value += 2
        }
    }
}

compare("E", "MutableProperty, 10 observers, 1M sets", goal: "<= 1.5x, 0 allocs") {
    let property = FloorProperty(0, StandardMutex.self)
    for _ in 0..<10 { property.add { sink.total &+= $0 } }
    let sets = count(1_000_000)
    return measure(events: sets) {
        for value in 0..<sets { property.set(value) }
    }
} library: {
    let property = MutableProperty(0)
    let sets = count(1_000_000)
    let subscriptions = (0..<10).map { _ in property.observe { sink.total &+= $0 } }
    defer { subscriptions.forEach { $0.dispose() } }
    return measure(events: sets) {
        for value in 0..<sets { property.value = value }
    }
}

compare("M", "flatMap(.merge), 100 inners, 1M inner sends", goal: "<= 1.5x") {
    // By hand: each inner source's observer takes the merged output's lock, which keeps
    // the merged deliveries serial, as the operator's serialized section does.
    let output = StandardMutex(0)
    let merged: @Sendable (Int) -> Void = { value in
        output.withLock { total in
            total = total &+ value
            sink.total = total
        }
    }
    let inners = (0..<100).map { _ in FloorSource<Int, StandardMutex>() }
    let outer = FloorSource<Int, StandardMutex>()
    _ = outer.add { index in _ = inners[index].add(merged) }
    for index in 0..<100 { outer.send(index) }
    let sends = count(1_000_000)
    return measure(events: sends) {
        for value in 0..<sends { inners[value % 100].send(value) }
    }
} library: {
    let inners = (0..<100).map { _ in Signal<Int>.pipe() }
    let outputs = inners.map(\.output)
    let (outer, outerInput) = Signal<Int>.pipe()
    let subscription = outer.flatMap(.merge) { outputs[$0] }.scan(0) { $0 &+ $1 }.observe { sink.total = $0 }
    defer { subscription.dispose() }
    for index in 0..<100 { outerInput.send(index) }
    let sends = count(1_000_000)
    return measure(events: sends) {
        for value in 0..<sends { inners[value % 100].input.send(value) }
    }
}

compare("P", "Producer map -> filter -> scan, 10M sends", goal: "report beside A") {
    // A's floor, so that P's ratio reads beside A's (Signal).
    mapFilterScanFloor()
} library: {
    let sends = count(10_000_000)
    let run = Producer<Int, Never> { input in
        for value in 0..<sends { input.send(value) }
        input.sendCompleted()
        return AnyDisposable {}
    }
    .map { $0 &+ 1 }
    .filter { $0 & 1 == 0 }
    .scan(0) { $0 &+ $1 }
    return measure(events: sends) {
        run.start(value: { sink.total = $0 })
    }
}

// Contention: more sending threads than cores.
for threads in [4, 16] {
    compare("G\(threads)", "one signal, 1 observer, \(threads) threads, 2M", goal: "report", counted: false) {
        func run<Lock: FloorLock>(_ source: FloorSource<Int, Lock>) -> Sample {
            _ = source.add { sink.total &+= $0 }
            let sends = count(2_000_000) / threads
            let elapsed = runConcurrently(threads: threads) { _ in
                for value in 0..<sends { source.send(value) }
            }
            return Sample(events: sends * threads, nanoseconds: elapsed, allocations: 0)
        }
        return floorLock == "mutex"
            ? run(FloorSource<Int, StandardMutex>()) : run(FloorSource<Int, PthreadMutex>())
    } library: {
        let (signal, input) = Signal<Int>.pipe()
        let subscription = signal.observe { sink.total &+= $0 }
        defer { subscription.dispose() }
        let sends = count(2_000_000) / threads
        let allocationsBefore = allocationsSoFar()
        let elapsed = runConcurrently(threads: threads) { _ in
            for value in 0..<sends { input.send(value) }
        }
        return Sample(
            events: sends * threads, nanoseconds: elapsed, allocations: Int(allocationsSoFar() - allocationsBefore))
    }

    compare("H\(threads)", "property, 10 observers, \(threads) threads, 500k", goal: "report", counted: false) {
        func run<Lock: FloorLock>(_ property: FloorProperty<Int, Lock>) -> Sample {
            for _ in 0..<10 { property.add { sink.total &+= $0 } }
            let sets = count(500_000) / threads
            let elapsed = runConcurrently(threads: threads) { _ in
                for value in 0..<sets { property.set(value) }
            }
            return Sample(events: sets * threads, nanoseconds: elapsed, allocations: 0)
        }
        return floorLock == "mutex"
            ? run(FloorProperty(0, StandardMutex.self)) : run(FloorProperty(0, PthreadMutex.self))
    } library: {
        let property = MutableProperty(0)
        let subscriptions = (0..<10).map { _ in property.observe { sink.total &+= $0 } }
        defer { subscriptions.forEach { $0.dispose() } }
        let sets = count(500_000) / threads
        let allocationsBefore = allocationsSoFar()
        let elapsed = runConcurrently(threads: threads) { _ in
            for value in 0..<sets { property.value = value }
        }
        return Sample(
            events: sets * threads, nanoseconds: elapsed, allocations: Int(allocationsSoFar() - allocationsBefore))
    }
}

/// Subscribes `live` observers and keeps them; returns the bytes and allocations they took.
func keepSubscriptions(_ live: Int) -> (bytes: Int, allocations: Int) {
    let (signal, input) = Signal<Int>.pipe()
    var subscriptions: [Disposable] = []
    subscriptions.reserveCapacity(live)
    let bytesBefore = bytesAllocatedNow()
    let allocationsBefore = allocationsSoFar()
    for _ in 0..<live {
        subscriptions.append(signal.observe { sink.total = $0 })
    }
    let bytes = Int(bytesAllocatedNow()) - Int(bytesBefore)
    let allocations = Int(allocationsSoFar() - allocationsBefore)
    input.send(1)
    withExtendedLifetime(subscriptions) {}
    return (bytes, allocations)
}

if options.isChosen("F") {
    let live = count(1_000_000)
    if let thresholdRun {
        thresholdRun.measure("F") { (live, keepSubscriptions(live).allocations) }
    } else if options.runsLibrary {
        let (bytes, allocations) = keepSubscriptions(live)
        print(
            "F   " + "bytes per live subscription, 1M kept alive".padding(toLength: 44, withPad: " ", startingAt: 0)
                + String(
                    format: "%8.1f bytes, %5.2f allocs/subscribe (goal <= 200 bytes)", Double(bytes) / Double(live),
                    Double(allocations) / Double(live)))
    }
}

if sink.total == 42 { print("") }
thresholdRun?.finish()
