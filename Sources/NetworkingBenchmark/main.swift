// networking-bench: the engine's overhead per request through the in-process transport.
//
//   swift run -c release networking-bench            20,000 requests per mode
//   swift run -c release networking-bench 5000       a chosen count
import Dispatch
import Foundation
import Networking

struct BenchAPI: APIDefinition {
    let serviceName: String
    let methodName = "rentals/list"
    let cachePolicy: CachePolicy
}

/// Issues the next call from each callback until `remaining` reaches zero.
@MainActor
final class Driver: APIManagerDelegate, APIManagerParameterSource {
    var done: CheckedContinuation<Void, Never>?
    private var remaining: Int
    private(set) var failures = 0
    var reload: () -> Void = {}

    init(count: Int) {
        remaining = count
    }

    func parameters(for manager: any APIManaging) -> [String: String] {
        ["city": "shanghai", "district": "xuhui", "rooms": "2"]
    }

    func apiManagerDidSucceed(_ manager: any APIManaging) {
        next()
    }

    func apiManagerDidFail(_ manager: any APIManaging) {
        failures += 1
        next()
    }

    private func next() {
        remaining -= 1
        if remaining > 0 { reload() } else { done?.resume() }
    }
}

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000
let body = JSONValue.object(["items": .array((0..<20).map { index -> JSONValue in
    ["id": .number(Double(index)), "title": .string("Home \(index)"), "price": .number(Double(3_000 + index))]
})]).encoded()
let transport = InProcessTransport { _ in HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body) }
let secret = Array("benchmark-secret".utf8)
let services = ServiceRegistry([
    APIService(name: "plain", baseURL: URL(string: "http://in-process/v1")!),
    APIService(name: "signed", baseURL: URL(string: "http://in-process/v1")!, signingSecret: secret),
])

@MainActor
func run(_ title: String, service: String, cache: CachePolicy) async {
    let engine = APIEngine(services: services, transport: transport)
    let manager = APIManager(BenchAPI(serviceName: service, cachePolicy: cache), engine: engine)
    let driver = Driver(count: count)
    manager.delegate = driver
    manager.parameterSource = driver
    driver.reload = { [unowned manager] in manager.loadData() }
    let start = DispatchTime.now().uptimeNanoseconds
    await withCheckedContinuation { continuation in
        driver.done = continuation
        manager.loadData()
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let line = title.padding(toLength: 34, withPad: " ", startingAt: 0)
    print(line + String(format: "%10.0f requests/s  %7.1f µs/request  (%d failed)",
                        Double(count) / seconds, seconds / Double(count) * 1e6, driver.failures))
}

print("\(count) sequential requests per mode, each with a 20-item JSON response")
await run("no cache, unsigned", service: "plain", cache: .none)
await run("no cache, signed", service: "signed", cache: .none)
await run("memory cache hits, unsigned", service: "plain", cache: .memory())
await run("memory cache hits, signed", service: "signed", cache: .memory())
