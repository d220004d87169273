// server-load-bench: keep-alive clients against a real `homes serve`, signed requests.
//
//   swift build -c release --package-path Benchmarks --product homes
//   swift build -c release --package-path Benchmarks --product server-load-bench
//   Benchmarks/.build/release/server-load-bench --clients 8 --seconds 10
//   Benchmarks/.build/release/server-load-bench --clients 32 --requests 1000000
//   Benchmarks/.build/release/server-load-bench --runs 3 --clients 8 --seconds 5   medians of 3 runs
//   Benchmarks/.build/release/server-load-bench --flood 32 --runs 3                 forged 1 MB forms at once
//   Benchmarks/.build/release/server-load-bench --flood 32 --forgery well-formed    all of one kind
//
// Starts `homes serve --port 0` (the `homes` beside this executable, or --homes PATH),
// drives it with N clients over persistent connections, each sending one signed GET at a
// time, and prints requests/s, p50/p99/max latency, errors and the server's RSS before
// and after. With `--runs N` the clients run N times against the same server and the
// medians of the runs are printed. There is no floor: issue 12 asked for these absolute
// figures (Docs/Benchmarks.md, "Server load").
//
// With `--flood N` it sends instead N forged 1 MB login forms at once, each on its own
// connection (headers captured from a genuine login or scrambled, new bodies; see
// `Flood.swift`), while one real client keeps sending signed requests, and prints how
// long the server took to refuse them all, how much of each body it let in first, the
// real client's latency meanwhile and the server's peak RSS (issue 32). `--forgery KIND`
// sends forms of one kind only: captured, stale, nonce, signature or well-formed (whose
// headers hold until the body is hashed); `mixed`, the default, sends each kind in turn.
import BenchmarkSupport
import Foundation
import Networking

#if canImport(Glibc)
    import Glibc
#endif

let options = BenchmarkOptions.parse(
    program: "server-load-bench", defaultRuns: 1, takes: [],
    valued: [
        "--clients": "8", "--seconds": "10", "--requests": "", "--flood": "0", "--forgery": "mixed",
        "--homes": URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("homes").path,
    ],
    usage: "[--clients N] [--seconds T] [--requests R] [--flood N] [--forgery KIND] [--homes PATH]")
/// Clients, each on one connection.
let clients = options.number("--clients", atLeast: 1) ?? 8
/// How long each run lasts, unless `--requests` is given.
let seconds = options.number("--seconds", atLeast: 0.1) ?? 10
/// Requests each run sends in all, spread over the clients; nil to run for `seconds`.
let requests = options.number("--requests", atLeast: 1)
let homes = options.values["--homes"] ?? "homes"
/// Forged forms sent at once, instead of the load run; 0 for the load run.
let floodSize = options.number("--flood", atLeast: 0) ?? 0
/// The kind of forged form the flood sends; nil for every kind in turn.
let floodKind: Forgery? = {
    let name = options.values["--forgery"] ?? "mixed"
    if name == "mixed" { return nil }
    guard let kind = Forgery.allCases.first(where: { $0.option == name }) else {
        options.fail("--forgery takes mixed, " + Forgery.allCases.map(\.option).joined(separator: ", "))
    }
    return kind
}()

/// The server's resident set in MiB, from /proc.
func residentMiB(of pid: Int32, field: String = "VmRSS:") -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return .nan }
    return kilobytes / 1024
}

/// One client: a blocking keep-alive connection, one request at a time.
final class Client {
    let handle: Int32
    let signer: RequestSigner
    let index: Int
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var pending: [UInt8] = []

    init?(port: UInt16, index: Int, signer: RequestSigner) {
        self.index = index
        self.signer = signer
        handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var yes: Int32 = 1
        setsockopt(handle, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard connected == 0 else { return nil }
    }

    /// Sends request `number` and reads its response; its status, or nil when the
    /// connection failed.
    func exchange(_ number: Int, port: UInt16) -> Int? {
        let page = number % 5 + 1
        var request = HTTPRequest(
            method: .get, url: URL(string: "http://127.0.0.1:\(port)/api/rentals/list?page=\(page)&page_size=10")!)
        signer.sign(&request, timestamp: Int(Date().timeIntervalSince1970), nonce: "c\(index)-\(number)")
        var head = "GET /api/rentals/list?page=\(page)&page_size=10 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8)
        guard bytes.withUnsafeBytes({ send(handle, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
        else { return nil }
        while true {
            if let (status, used) = Self.response(in: pending) {
                pending.removeFirst(used)
                return status
            }
            let count = read(handle, &buffer, buffer.count)
            guard count > 0 else { return nil }
            pending += buffer[0..<count]
        }
    }

    /// A whole response at the front of `bytes`: its status and length. Reads bytes only
    /// (no strings), so the load generator takes as little CPU from the server as it can.
    static func response(in bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 16 else { return nil }
        let name = Array("content-length:".utf8)
        var end = -1
        var length: Int?
        var lineStart = 0
        var index = 1
        while index < bytes.count {
            if bytes[index] == 10 && bytes[index - 1] == 13 {
                if index - lineStart == 1 {
                    end = index + 1
                    break
                }
                if index - lineStart > name.count,
                    zip(name, bytes[lineStart..<lineStart + name.count]).allSatisfy({ $0 == $1 | 0x20 })
                {
                    var value = 0
                    for byte in bytes[(lineStart + name.count)..<(index - 1)] where byte != 32 {
                        guard (48...57).contains(byte) else { return nil }
                        value = value * 10 + Int(byte - 48)
                    }
                    length = value
                }
                lineStart = index + 1
            }
            index += 1
        }
        guard end > 0, let length else { return nil }
        let status = bytes[9..<12].reduce(0) { $0 * 10 + Int($1) - 48 }
        guard bytes.count >= end + length else { return nil }
        return (status, end + length)
    }
}

let secret = "bench-secret"
let process = Process()
process.executableURL = URL(fileURLWithPath: homes)
process.arguments = ["serve", "--port", "0"]
var environment = ProcessInfo.processInfo.environment
environment["HOMES_SECRET"] = secret
process.environment = environment
let output = Pipe()
process.standardOutput = output
do {
    try process.run()
} catch {
    FileHandle.standardError.write(Data("server-load-bench: cannot start \(homes): \(error)\n".utf8))
    exit(1)
}
var announced = Data()
while !announced.contains(UInt8(ascii: "\n")) {
    let chunk = output.fileHandleForReading.availableData
    if chunk.isEmpty { break }
    announced += chunk
}
guard let line = String(data: announced, encoding: .utf8),
    let portText = line.split(separator: ":").last?.split(separator: "/").first,
    let port = UInt16(portText)
else {
    FileHandle.standardError.write(Data("server-load-bench: the server did not say where it listens\n".utf8))
    process.terminate()
    exit(1)
}

let signer = RequestSigner(secret: Array(secret.utf8))
// Warm up, then measure the server's resident set before the run.
if let warm = Client(port: port, index: -1, signer: signer) {
    for number in 0..<2_000 { _ = warm.exchange(number, port: port) }
    close(warm.handle)
}
let rssBefore = residentMiB(of: process.processIdentifier)

if floodSize > 0 {
    runFloods(
        size: floodSize, kind: floodKind, runs: options.runs, port: port, signer: signer,
        server: process.processIdentifier,
        rssBefore: rssBefore)
    process.terminate()
    process.waitUntilExit()
    exit(0)
}

final class Tally: @unchecked Sendable {
    // Safe to share: each thread writes only its own slot, and the main thread reads the
    // slots after joining every thread (the group's wait orders the accesses).
    var latencies: [[UInt32]]
    var errors: [Int]
    init(count: Int) {
        latencies = Array(repeating: [], count: count)
        errors = Array(repeating: 0, count: count)
    }
}

/// One run's figures.
struct Run {
    var requests: Int
    var seconds: Double
    /// Latency percentiles in milliseconds.
    var p50: Double
    var p99: Double
    var max: Double
    var errors: Int

    var requestsPerSecond: Double { Double(requests) / seconds }
}

/// Runs the clients once: for `seconds`, or until they have sent `requests` in all. The
/// clients of run `run` are numbered after those of the runs before, so that their nonces
/// are new to the server.
func load(run: Int) -> Run {
    let tally = Tally(count: clients)
    let group = DispatchGroup()
    let started = Date()
    let deadline = started.addingTimeInterval(requests == nil ? seconds : 86_400)
    let perClient = requests.map { ($0 + clients - 1) / clients } ?? Int.max
    for index in 0..<clients {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            guard let client = Client(port: port, index: run * clients + index, signer: signer) else {
                tally.errors[index] += 1
                return
            }
            defer { close(client.handle) }
            var latencies: [UInt32] = []
            latencies.reserveCapacity(min(perClient, 1 << 20))
            var number = 0
            var clock = timespec()
            while number < perClient {
                clock_gettime(CLOCK_MONOTONIC, &clock)
                let before = clock.tv_sec * 1_000_000_000 + clock.tv_nsec
                let status = client.exchange(number, port: port)
                clock_gettime(CLOCK_MONOTONIC, &clock)
                let after = clock.tv_sec * 1_000_000_000 + clock.tv_nsec
                if status != 200 { tally.errors[index] += 1 }
                if status == nil { break }
                latencies.append(UInt32(min(Int(UInt32.max), (after - before) / 1_000)))
                number += 1
                if number % 256 == 0 && Date() >= deadline { break }
            }
            tally.latencies[index] = latencies
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
    let elapsed = Date().timeIntervalSince(started)
    let all = tally.latencies.flatMap { $0 }.sorted()
    func percentile(_ fraction: Double) -> Double {
        guard !all.isEmpty else { return .nan }
        return Double(all[min(all.count - 1, Int(Double(all.count) * fraction))]) / 1_000
    }
    return Run(
        requests: all.count, seconds: elapsed, p50: percentile(0.5), p99: percentile(0.99),
        max: Double(all.last ?? 0) / 1_000, errors: tally.errors.reduce(0, +))
}

var runs: [Run] = []
for number in 0..<options.runs {
    let run = load(run: number)
    print("clients \(clients), \(run.requests) requests in \(String(format: "%.1f", run.seconds)) s")
    runs.append(run)
}
let rssAfter = residentMiB(of: process.processIdentifier)
process.terminate()
process.waitUntilExit()

let medians = runs.count == 1 ? "" : "  (medians of \(runs.count) runs)"
print(String(format: "requests/s %.0f", median(runs.map(\.requestsPerSecond))) + medians)
print(
    String(
        format: "latency ms: p50 %.3f  p99 %.3f  max %.3f", median(runs.map(\.p50)), median(runs.map(\.p99)),
        median(runs.map(\.max))) + medians)
let errors = runs.map(\.errors).reduce(0, +)
print("errors \(errors)")
print(String(format: "server RSS MiB: %.1f before, %.1f after", rssBefore, rssAfter))
