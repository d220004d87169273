// networking-bench: each Networking figure beside its physical floor, measured in one
// process, the floor and the library run alternately, reported as medians and ratios.
//
//   swift run -c release --package-path Benchmarks networking-bench                      every scenario, 5 runs each
//   swift run -c release --package-path Benchmarks networking-bench call-unsigned sha256 chosen scenarios
//   swift run -c release --package-path Benchmarks networking-bench --runs 9 --scale 0.5 more runs, less work per run
//   networking-bench --only library --runs 1 --scale 0.1 call-unsigned    one side (for callgrind)
//   networking-bench --check-thresholds Benchmarks/Thresholds/networking-bench.json   (CI: allocation counts)
//
// Scenarios and their floors:
//   call-unsigned  one APIManager call (`manager.call`), in-process, unsigned | a handler through two bare queue hops
//   call-signed    the same, signed (HMAC-SHA256)                       | the same two hops
//   cache-hit      a call answered from the memory cache                | one bare hop on the main queue
//   call-tracked   call-unsigned tracked by an Activity, as a logic's call is | the same two hops
//   call-delegate  call-unsigned through the delegate adapter (`loadData`) | the same two hops
//   sha256         SHA-256 of 64 MiB, called from this module           | coreutils `sha256sum` on the same bytes
//   json           parse 1 MB of listings into JSONValue                | Foundation's JSONSerialization
import BenchmarkSupport
import Dispatch
import Foundation
import Networking
import Signals

let allScenarios = ["call-unsigned", "call-signed", "cache-hit", "call-tracked", "call-delegate", "sha256", "json"]
let options = BenchmarkOptions.parse(
    program: "networking-bench", defaultRuns: 5, usage: "[\(allScenarios.joined(separator: " "))]..."
) { name in
    allScenarios.contains(name.lowercased()) ? name.lowercased() : nil
}
let runFloor = options.runsFloor
let runLibrary = options.runsLibrary
let chosen = options.scenarios.isEmpty ? allScenarios : allScenarios.filter(options.scenarios.contains)

/// A threshold run counts the library's allocations at this scale (100 calls, 1 MiB
/// hashed, 20 KB parsed), whatever `--scale` says, so that the counts stay comparable.
let thresholdScale = 0.02
let thresholdRun = options.thresholds.map { ThresholdRun($0, program: "networking-bench") }
let scale = thresholdRun == nil ? options.scale : thresholdScale

func count(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }

/// One line of the report: medians of floor and library in `unit`, and library / floor.
func report(_ scenario: String, floor: [Double], library: [Double], unit: String, goal: String, note: String = "") {
    let (f, l) = (floor.isEmpty ? .nan : median(floor), library.isEmpty ? .nan : median(library))
    let name = scenario.padding(toLength: 14, withPad: " ", startingAt: 0)
    print(
        name
            + String(
                format: "floor %10.2f %@   library %10.2f %@   ratio %5.2f   goal %@", f, unit, l, unit, l / f, goal)
            + (note.isEmpty ? "" : "   (\(note))"))
}

// MARK: - Calls

struct BenchAPI: APIDefinition {
    let serviceName: String
    let methodName = "rentals/list"
    let cachePolicy: CachePolicy
}

let callParameters = ["city": "shanghai", "district": "xuhui", "rooms": "2"]
let listBody = JSONValue.object([
    "items": .array(
        (0..<20).map { index -> JSONValue in
            ["id": .number(Double(index)), "title": .string("Home \(index)"), "price": .number(Double(3_000 + index))]
        })
]).encoded()
let response = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: listBody)
let services = ServiceRegistry([
    APIService(name: "plain", baseURL: URL(string: "http://in-process/v1")!),
    APIService(
        name: "signed", baseURL: URL(string: "http://in-process/v1")!, signingSecret: Array("benchmark-secret".utf8)),
])

/// Issues the next call from each callback until `remaining` reaches zero.
@MainActor
final class Driver: APIManagerDelegate, APIManagerParameterSource {
    var done = true
    var remaining = 0
    private(set) var failures = 0
    var reload: () -> Void = {}

    func parameters(for manager: any APIManaging) -> [String: String] { callParameters }

    func apiManagerDidSucceed(_ manager: any APIManaging) { succeeded() }

    func apiManagerDidFail(_ manager: any APIManaging) { failed() }

    func succeeded() { next() }

    /// A run of the call ended with `outcome`.
    func ended(_ outcome: Result<Void, APIResult>) {
        if case .failure = outcome { failed() } else { succeeded() }
    }

    func failed() {
        failures += 1
        next()
    }

    private func next() {
        remaining -= 1
        if remaining > 0 { reload() } else { done = true }
    }
}

/// Runs the main run loop (which drains the main queue) until `finished` holds. The
/// benchmark drives the main queue this way rather than with `dispatchMain()` so that it
/// also runs under valgrind, which cannot follow dispatch's parked main thread.
@MainActor
func runMainLoop(until finished: () -> Bool) {
    while !finished() {
        _ = RunLoop.main.run(mode: .default, before: .distantFuture)
    }
}

/// One engine and manager per call scenario, kept across runs (as an app keeps them).
///
/// Calls go through the primary path, a run of `manager.call(with:reform:)` ended on the
/// main actor (`.ended`), tracked by an `Activity` as a logic tracks it (`.tracked`), or
/// through `loadData()` and the delegate adapter (`.delegate`).
@MainActor
final class CallBench {
    /// How a call is made and ended.
    enum Path {
        case ended, tracked, delegate
    }

    let transport = InProcessTransport { _ in response }
    let manager: APIManager<BenchAPI>
    let driver = Driver()
    let path: Path
    private let call: Producer<Void, APIResult>
    private let activity = Activity<APIResult>()

    init(service: String, cache: CachePolicy, path: Path) {
        manager = APIManager(
            BenchAPI(serviceName: service, cachePolicy: cache),
            engine: APIEngine(services: services, transport: transport))
        self.path = path
        call = manager.call(with: callParameters) { _, _ in () }
        if path == .delegate {
            manager.delegate = driver
            manager.parameterSource = driver
            driver.reload = { [unowned manager] in manager.loadData() }
        } else {
            driver.reload = { [unowned self] in self.startCall() }
        }
    }

    /// Microseconds per call over `calls` sequential calls.
    func run(_ calls: Int) -> Double {
        driver.remaining = calls
        driver.done = false
        let start = nowNanoseconds()
        driver.reload()
        runMainLoop { driver.done }
        return Double(nowNanoseconds() - start) / 1e3 / Double(calls)
    }

    /// Starts one run of the call; its end starts the next.
    private func startCall() {
        if path == .tracked {
            call.start(tracking: activity) { [driver] outcome in driver.ended(outcome) }
        } else {
            call.start(ended: { [driver] outcome in driver.ended(outcome) })
        }
    }
}

/// The floor of a call: a hand-written handler producing the same response, reached
/// through the hops the engine makes (a concurrent transport queue like
/// `InProcessTransport`'s, then the main queue), calls issued one after another.
@MainActor
final class HopFloor {
    let transportQueue = DispatchQueue(label: "floor.in-process", attributes: .concurrent)
    let handler: @Sendable (HTTPRequest) -> HTTPResponse = { _ in response }
    let request = HTTPRequest(method: .get, url: URL(string: "http://in-process/v1/rentals/list?city=shanghai")!)
    var remaining = 0
    var bytes = 0
    var done = true

    /// Microseconds per call; `hops` is 2 (transport queue, then main) or 1 (main only).
    func run(_ calls: Int, hops: Int) -> Double {
        remaining = calls
        done = false
        let start = nowNanoseconds()
        next(hops: hops)
        runMainLoop { done }
        return Double(nowNanoseconds() - start) / 1e3 / Double(calls)
    }

    private func next(hops: Int) {
        let (handler, request) = (self.handler, self.request)
        if hops == 2 {
            transportQueue.async {
                let answer = handler(request)
                DispatchQueue.main.async { MainActor.assumeIsolated { self.arrived(answer, hops: hops) } }
            }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { self.arrived(handler(request), hops: hops) } }
        }
    }

    private func arrived(_ answer: HTTPResponse, hops: Int) {
        bytes &+= answer.body.count
        remaining -= 1
        if remaining > 0 { next(hops: hops) } else { done = true }
    }
}

@MainActor
func callScenario(
    _ name: String, service: String, cache: CachePolicy, hops: Int, goal: String, path: CallBench.Path = .ended
) {
    let calls = count(5_000)
    let bench = CallBench(service: service, cache: cache, path: path)
    if let thresholdRun {
        thresholdRun.measure(name, events: calls) { _ = bench.run(calls) }
        if bench.driver.failures > 0 {
            print("\(name): \(bench.driver.failures) calls failed")
            exit(1)
        }
        return
    }
    let floor = HopFloor()
    if runLibrary { _ = bench.run(min(calls, 500)) } // warm up (and fill the cache)
    if runFloor { _ = floor.run(min(calls, 500), hops: hops) }
    var floorTimes: [Double] = []
    var libraryTimes: [Double] = []
    for _ in 0..<options.runs {
        if runFloor { floorTimes.append(floor.run(calls, hops: hops)) }
        if runLibrary { libraryTimes.append(bench.run(calls)) }
    }
    let note = bench.driver.failures > 0 ? "\(bench.driver.failures) calls failed" : ""
    report(name, floor: floorTimes, library: libraryTimes, unit: "us/call", goal: goal, note: note)
}

// MARK: - SHA-256

@MainActor
func sha256Scenario() throws {
    let size = count(64) << 20
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: size)
    for index in stride(from: 0, to: size, by: 8) {
        withUnsafeBytes(of: generator.next() as UInt64) { word in
            for offset in 0..<min(8, size - index) { bytes[index + offset] = word[offset] }
        }
    }
    let data = Data(bytes)
    if let thresholdRun {
        // Per 64-byte block, so that an allocation per block shows as one per event.
        thresholdRun.measure("sha256", events: size / 64) { _ = SHA256.hash(data) }
        return
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("networking-bench-\(getpid()).bin")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let mebibytes = Double(size) / Double(1 << 20)
    var floorRates: [Double] = []
    var libraryRates: [Double] = []
    let expected = runFloor ? nil : SHA256.hash(data).hexString
    for _ in 0..<options.runs {
        var output = Data(expected?.utf8 ?? "".utf8)
        if runFloor {
            // The floor: a child process, started, reading the file and exiting; nothing subtracted.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            process.arguments = [file.path]
            let pipe = Pipe()
            process.standardOutput = pipe
            let start = nowNanoseconds()
            try process.run()
            output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            floorRates.append(mebibytes / (Double(nowNanoseconds() - start) / 1e9))
        }
        guard runLibrary else { continue }

        let libraryStart = nowNanoseconds()
        let digest = SHA256.hash(data)
        libraryRates.append(mebibytes / (Double(nowNanoseconds() - libraryStart) / 1e9))
        guard String(decoding: output.prefix(64), as: UTF8.self) == digest.hexString else {
            print("sha256: the digests differ")
            exit(1)
        }
    }
    // Reported as time per MiB so that the ratio reads like the others (library / floor).
    report(
        "sha256", floor: floorRates.map { 1e3 / $0 }, library: libraryRates.map { 1e3 / $0 }, unit: "ms/MiB",
        goal: "<= 1",
        note: String(
            format: "%.0f MiB/s sha256sum, %.0f MiB/s library, %.0f MiB",
            floorRates.isEmpty ? .nan : median(floorRates),
            libraryRates.isEmpty ? .nan : median(libraryRates), mebibytes))
}

// MARK: - JSON

@MainActor
func jsonScenario() throws {
    let cities = ["shanghai", "beijing", "shenzhen", "hangzhou", "chengdu"]
    var items: [JSONValue] = []
    var size = 0
    let target = count(1_000_000)
    while size < target {
        let index = items.count
        let item: JSONValue = [
            "id": .number(Double(index)),
            "title": .string("Bright \(index % 4 + 1)-room flat near line \(index % 17 + 1), quiet street"),
            "city": .string(cities[index % cities.count]),
            "district": .string("district-\(index % 23)"),
            "price": .number(Double(2_500 + (index * 37) % 9_000)),
            "area": .number(Double(35 + index % 120) + 0.5),
            "rooms": .number(Double(index % 5 + 1)),
            "furnished": .bool(index % 3 == 0),
            "tags": .array([
                .string("subway"), .string("south-facing"), .string("pets \(index % 2 == 0 ? "ok" : "no")"),
            ]),
            "agent": ["name": .string("Agent \(index % 97)"), "phone": .string("+86 21 5555 \(1000 + index % 9000)")],
            "description": .string("Line one\nLine two with a quote \" and a tab \t and ü, é, 家."),
        ]
        size += item.encoded().count + 1
        items.append(item)
    }
    let data = JSONValue.object(["items": .array(items), "total": .number(Double(items.count))]).encoded()
    if let thresholdRun {
        // Per listing parsed (and freed).
        try thresholdRun.measure("json", events: items.count) { _ = try JSONValue(parsing: data) }
        return
    }
    let repeats = 5
    var floorTimes: [Double] = []
    var libraryTimes: [Double] = []
    for _ in 0..<options.runs {
        var start = nowNanoseconds()
        if runFloor {
            for _ in 0..<repeats {
                let object = try JSONSerialization.jsonObject(with: data)
                guard (object as? [String: Any])?["items"] != nil else {
                    print("json: JSONSerialization failed")
                    exit(1)
                }
            }
            floorTimes.append(Double(nowNanoseconds() - start) / 1e6 / Double(repeats))
        }
        guard runLibrary else { continue }
        start = nowNanoseconds()
        for _ in 0..<repeats {
            let value = try JSONValue(parsing: data)
            guard value["items"]?.arrayValue?.count == items.count else {
                print("json: parse failed")
                exit(1)
            }
        }
        libraryTimes.append(Double(nowNanoseconds() - start) / 1e6 / Double(repeats))
    }
    report(
        "json", floor: floorTimes, library: libraryTimes, unit: "ms/parse", goal: "< 1 (kept 2.3x faster)",
        note: String(format: "%.2f MB, floor is JSONSerialization", Double(data.count) / 1e6))
}

// MARK: - Run

if thresholdRun == nil {
    print("networking-bench: \(options.runs) runs, scale \(scale); medians; ratio = library / floor")
}
for scenario in chosen {
    switch scenario {
    case "call-unsigned": callScenario(scenario, service: "plain", cache: .none, hops: 2, goal: "<= 2")
    case "call-signed": callScenario(scenario, service: "signed", cache: .none, hops: 2, goal: "none set")
    case "cache-hit": callScenario(scenario, service: "plain", cache: .memory(), hops: 1, goal: "none set")
    case "call-tracked":
        callScenario(scenario, service: "plain", cache: .none, hops: 2, goal: "none set", path: .tracked)
    case "call-delegate":
        callScenario(scenario, service: "plain", cache: .none, hops: 2, goal: "none set", path: .delegate)
    case "sha256": try sha256Scenario()
    case "json": try jsonScenario()
    default: break
    }
}
thresholdRun?.finish()
