// The flood of `--flood N` (issue 32): N forged 1 MB login forms sent at once, each on a
// connection of its own, while one real client keeps sending signed requests.
import BenchmarkSupport
import Foundation
import Networking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How a forged form's signature headers were made.
enum Forgery: Int, CaseIterable {
    /// The headers of a genuine login, captured and sent again with a new body: its nonce
    /// is spent.
    case captured
    /// Captured headers with the timestamp's digits reversed: far outside the window.
    case staleTimestamp
    /// Captured headers with a nonce of characters no nonce may hold.
    case badNonce
    /// Captured headers with a signature that is not 64 hex digits.
    case badSignature
    /// A fresh timestamp, a new nonce and 64 random hex digits: only the body's hash can
    /// show that this one is forged.
    case wellFormed

    /// The name `--forgery` takes.
    var option: String {
        switch self {
        case .captured: return "captured"
        case .staleTimestamp: return "stale"
        case .badNonce: return "nonce"
        case .badSignature: return "signature"
        case .wellFormed: return "well-formed"
        }
    }

    var label: String {
        switch self {
        case .captured: return "captured headers (spent nonce)"
        case .staleTimestamp: return "scrambled timestamp"
        case .badNonce: return "scrambled nonce"
        case .badSignature: return "scrambled signature"
        case .wellFormed: return "well-formed, wrong signature"
        }
    }
}

/// What one forged form met.
struct FloodAnswer {
    var forgery: Forgery
    /// The status of the answer; nil when none came within the time allowed.
    var status: Int?
    /// From the moment every form started to the whole answer, in seconds.
    var seconds: Double
    /// How much of the body had been sent when the answer arrived (the kernel takes a
    /// megabyte on loopback faster than the server reads a head, so usually all of it).
    var bodyBytesSent: Int
}

/// The size of each forged body: a million bytes of form fields.
let floodBodySize = 1_000_000

/// A form of `size` bytes of fields, different for each `seed`.
func forgedForm(size: Int, seed: Int) -> [UInt8] {
    var body = Array("username=mei&password=x\(seed)".utf8)
    body.reserveCapacity(size + 32)
    var field = 0
    while body.count < size {
        body += Array("&f\(field)=\(seed &* 31 &+ field)".utf8)
        field += 1
    }
    return Array(body.prefix(size))
}

/// The request bytes of a login form with `headers` as its signature fields.
func loginRequest(headers: [String: String], body: [UInt8]) -> (bytes: [UInt8], headLength: Int) {
    var head =
        "POST /api/account/login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    head += "\r\n"
    let headBytes = Array(head.utf8)
    return (headBytes + body, headBytes.count)
}

/// The signature fields of a genuine login with `body`, signed now with `nonce`.
func signedHeaders(signer: RequestSigner, port: UInt16, body: [UInt8], nonce: String) -> [String: String] {
    var request = HTTPRequest(
        method: .post, url: URL(string: "http://127.0.0.1:\(port)/api/account/login")!, body: Data(body))
    signer.sign(&request, timestamp: Int(Date().timeIntervalSince1970), nonce: nonce)
    return request.headers
}

/// A connected socket to the server, or nil.
func connectSocket(port: UInt16) -> Int32? {
    let handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard handle >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(handle)
        return nil
    }
    return handle
}

/// Sends `bytes` on `handle` while reading, until a whole response has arrived, the
/// server closes, or `deadline` (nanoseconds, monotonic) passes: the status and how many
/// bytes had been sent by then.
func exchangeWhileSending(_ bytes: [UInt8], on handle: Int32, deadline: UInt64) -> (status: Int?, sent: Int) {
    _ = fcntl(handle, F_SETFL, fcntl(handle, F_GETFL) | O_NONBLOCK)
    var sent = 0
    var sending = true
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let now = nowNanoseconds()
        guard now < deadline else { return (nil, sent) }
        var poller = pollfd(
            fd: handle, events: Int16(POLLIN) | (sending ? Int16(POLLOUT) : 0), revents: 0)
        let ready = poll(&poller, 1, Int32(min(1_000, (deadline - now) / 1_000_000 + 1)))
        if ready < 0 && errno != EINTR { return (nil, sent) }
        guard ready > 0 else { continue }
        if poller.revents & Int16(POLLIN) != 0 {
            let count = read(handle, &buffer, buffer.count)
            if count > 0 {
                received += buffer[0..<count]
                if let (status, _) = Client.response(in: received) { return (status, sent) }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                return (Client.response(in: received)?.0, sent)
            }
        }
        if sending && poller.revents & Int16(POLLOUT) != 0 {
            let written = bytes[sent...].withUnsafeBytes { send(handle, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 { sent += written }
            if written < 0 && errno != EAGAIN && errno != EINTR { sending = false }
            if sent == bytes.count { sending = false }
        }
        if poller.revents & Int16(POLLERR | POLLHUP) != 0 && poller.revents & Int16(POLLIN) == 0 {
            return (Client.response(in: received)?.0, sent)
        }
    }
}

/// One flood's figures.
struct FloodRun {
    var answers: [FloodAnswer]
    /// Until the last form was answered (or given up on), in seconds.
    var seconds: Double
    /// The real client's requests meanwhile, their latencies in milliseconds, and errors.
    var realLatencies: [Double]
    var realErrors: Int
    /// Whether a genuine login sent after the flood was served.
    var genuineServed: Bool
}

// Safe to share: each forger thread writes only its own slot, and the main thread reads
// the slots after the group's wait.
final class FloodTally: @unchecked Sendable {
    var answers: [FloodAnswer?]
    var realLatencies: [Double] = []
    var realErrors = 0
    init(count: Int) { answers = Array(repeating: nil, count: count) }
}

/// A login with `body` signed now, sent on a connection of its own: its status.
func genuineLogin(port: UInt16, signer: RequestSigner, body: [UInt8], nonce: String) -> (Int?, [String: String]) {
    let headers = signedHeaders(signer: signer, port: port, body: body, nonce: nonce)
    guard let handle = connectSocket(port: port) else { return (nil, headers) }
    defer { close(handle) }
    let (status, _) = exchangeWhileSending(
        loginRequest(headers: headers, body: body).bytes, on: handle, deadline: nowNanoseconds() + 10_000_000_000)
    return (status, headers)
}

/// Sends `size` forged forms at once, round `round`: of every kind in turn, or all of `kind`.
func flood(size: Int, kind: Forgery?, round: Int, port: UInt16, signer: RequestSigner) -> FloodRun {
    let genuineBody = Array("username=mei&password=homes2026".utf8)
    let (capturedStatus, captured) = genuineLogin(
        port: port, signer: signer, body: genuineBody, nonce: "genuine-\(round)")
    if capturedStatus != 200 { print("the genuine login to capture was answered \(capturedStatus ?? 0)") }
    var requests: [(Forgery, [UInt8], Int)] = []
    for index in 0..<size {
        let forgery = kind ?? Forgery(rawValue: index % Forgery.allCases.count) ?? .captured
        var headers = captured
        let timestamp = captured[SignatureHeader.timestamp] ?? "0"
        switch forgery {
        case .captured: break
        case .staleTimestamp: headers[SignatureHeader.timestamp] = String(timestamp.reversed())
        case .badNonce: headers[SignatureHeader.nonce] = "forged nonce #\(round)-\(index)"
        case .badSignature:
            headers[SignatureHeader.signature] = "zz" + String((captured[SignatureHeader.signature] ?? "").shuffled())
        case .wellFormed:
            headers[SignatureHeader.timestamp] = String(Int(Date().timeIntervalSince1970))
            headers[SignatureHeader.nonce] = "forged-\(round)-\(index)"
            headers[SignatureHeader.signature] = String((0..<64).map { _ in "0123456789abcdef".randomElement()! })
        }
        let (bytes, headLength) = loginRequest(
            headers: headers, body: forgedForm(size: floodBodySize, seed: round * size + index))
        requests.append((forgery, bytes, headLength))
    }
    let tally = FloodTally(count: size)
    let group = DispatchGroup()
    let ready = DispatchGroup()
    let go = DispatchSemaphore(value: 0)
    let started = Atomic<UInt64>(0)
    for (index, (forgery, bytes, headLength)) in requests.enumerated() {
        group.enter()
        ready.enter()
        let thread = Thread {
            defer { group.leave() }
            guard let handle = connectSocket(port: port) else {
                ready.leave()
                tally.answers[index] = FloodAnswer(forgery: forgery, status: nil, seconds: .nan, bodyBytesSent: 0)
                return
            }
            defer { close(handle) }
            ready.leave()
            go.wait()
            let start = started.load(ordering: .acquiring)
            let (status, sent) = exchangeWhileSending(bytes, on: handle, deadline: start + 10_000_000_000)
            tally.answers[index] = FloodAnswer(
                forgery: forgery, status: status, seconds: Double(nowNanoseconds() - start) / 1e9,
                bodyBytesSent: max(0, sent - headLength))
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    ready.wait()
    // The real client: signed requests one after another until every form is answered.
    let finished = Atomic<Bool>(false)
    let real = DispatchGroup()
    real.enter()
    let realThread = Thread {
        defer { real.leave() }
        guard let client = Client(port: port, index: 1_000_000 + round, signer: signer) else {
            tally.realErrors += 1
            return
        }
        defer { close(client.handle) }
        var number = 0
        while !finished.load(ordering: .relaxed) {
            let before = nowNanoseconds()
            let status = client.exchange(number, port: port)
            tally.realLatencies.append(Double(nowNanoseconds() - before) / 1e6)
            if status != 200 { tally.realErrors += 1 }
            if status == nil { break }
            number += 1
        }
    }
    realThread.start()
    started.store(nowNanoseconds(), ordering: .releasing)
    for _ in 0..<size { go.signal() }
    group.wait()
    let seconds = Double(nowNanoseconds() - started.load(ordering: .acquiring)) / 1e9
    finished.store(true, ordering: .relaxed)
    real.wait()
    let (genuineStatus, _) = genuineLogin(
        port: port, signer: signer, body: genuineBody, nonce: "genuine-after-\(round)")
    return FloodRun(
        answers: tally.answers.compactMap { $0 }, seconds: seconds, realLatencies: tally.realLatencies.sorted(),
        realErrors: tally.realErrors, genuineServed: genuineStatus == 200)
}

/// Runs `runs` floods of `size` forms (of `kind`, or mixed) and prints what each met, then
/// the median.
func runFloods(
    size: Int, kind: Forgery?, runs: Int, port: UInt16, signer: RequestSigner, server: Int32, rssBefore: Double
) {
    var totals: [Double] = []
    for round in 0..<runs {
        let run = flood(size: size, kind: kind, round: round, port: port, signer: signer)
        totals.append(run.seconds)
        let answered = run.answers.filter { $0.status != nil }
        let withinFive = answered.filter { $0.seconds <= 5 }.count
        print(
            String(
                format: "flood of %d forms of %d bytes: the last answered after %.3f s; %d of %d answered within 5 s",
                size, floodBodySize, answered.map(\.seconds).max() ?? .nan, withinFive, size))
        for forgery in Forgery.allCases {
            let mine = run.answers.filter { $0.forgery == forgery }
            guard !mine.isEmpty else { continue }
            let statuses = Dictionary(grouping: mine, by: { $0.status.map(String.init) ?? "none" })
                .map { "\($0.value.count) x \($0.key)" }.sorted().joined(separator: ", ")
            let whole = mine.filter { $0.bodyBytesSent == floodBodySize }.count
            print(
                "  " + forgery.label.padding(toLength: 31, withPad: " ", startingAt: 0) + statuses
                    + String(
                        format: "; slowest %.3f s; bodies sent whole: %d of %d", mine.map(\.seconds).max() ?? .nan,
                        whole, mine.count))
        }
        let latencies = run.realLatencies
        print(
            String(
                format:
                    "  real client meanwhile: %d requests, p50 %.3f ms, max %.3f ms, errors %d; a genuine login after: %@",
                latencies.count, latencies.isEmpty ? Double.nan : latencies[latencies.count / 2],
                latencies.last ?? .nan, run.realErrors, run.genuineServed ? "served" : "NOT served"))
    }
    if totals.count > 1 {
        print(
            String(format: "flood: every form answered after %.3f s (median of %d runs)", median(totals), totals.count))
    }
    print(
        String(
            format: "server RSS MiB: %.1f before, %.1f after, peak %.1f", rssBefore, residentMiB(of: server),
            residentMiB(of: server, field: "VmHWM:")))
}
