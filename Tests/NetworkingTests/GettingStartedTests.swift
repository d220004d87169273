// article: Networking/GettingStarted
import Foundation
import Networking
import Signals
import Testing

// One type per API: only what differs from the others.
struct RentalTitlesAPI: APIDefinition {
    let serviceName = "rentals"
    let methodName = "rentals/list"
    let pageSize: Int? = 2
    let cachePolicy = CachePolicy.memory() // 180 s
}

// A reformer turns a call's data into what a view needs; it is told the call.
struct RentalTitlesReformer: APICallReformer {
    func reform(_ data: JSONValue, of call: APICall<RentalTitlesAPI>) -> [String] {
        (data["items"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
    }
}

// The logic's state is one property a controller binds. A call is a producer the
// manager makes: each run's outcome goes from the manager to the run. An activity
// tracks the calls: whether one runs, and why the last one failed.
@MainActor
final class RentalTitlesLogic {
    let titles: Property<[String]>
    let activity = Activity<APIResult>()
    private let current = MutableProperty<[String]>([])
    private let manager: APIManager<RentalTitlesAPI>

    init(engine: APIEngine) {
        titles = Property(current)
        manager = APIManager(RentalTitlesAPI(), engine: engine)
    }

    func load() { start(.first(ignoringCache: false)) }
    func loadMore() { start(.next) }
    var isComplete: Bool { manager.isLastPage }

    private func start(_ page: APICallPage) {
        let call = manager.call(with: ["city": "shanghai"], page: page, reformer: RentalTitlesReformer())
        call.start(tracking: activity) { [current] outcome in
            if case .success(let titles) = outcome { current.value += titles }
        }
    }
}
// article end

/// The code of `Networking.docc/GettingStarted.md`, run, with waits for the delegate.
@Suite struct NetworkingGettingStartedTests {
    @Test @MainActor func theArticlesExampleRunsAsItSays() async {
        // article: Networking/GettingStarted
        // A server stand-in in this process, checking signatures as a real server does.
        let secret = Array("from-your-configuration".utf8)
        let verifier = SignatureVerifier(secret: secret)
        let transport = InProcessTransport { request in
            guard verifier.verify(request, now: Date()) == .valid else {
                return .json(["message": "bad signature"], status: 401)
            }
            let page = Int(request.parameters["page"] ?? "1") ?? 1
            let titles: [JSONValue] = page == 1 ? ["Loft", "Studio"] : ["Villa"]
            return .json(["items": .array(titles.map { ["title": $0] })])
        }
        let engine = APIEngine(
            services: ServiceRegistry([
                APIService(
                    name: "rentals", baseURL: URL(string: "https://api.example")!,
                    signingSecret: secret)
            ]),
            transport: transport
        )
        let logic = RentalTitlesLogic(engine: engine)
        logic.load() // page 1; it lands on the main actor
        // article end
        for await titles in logic.titles.values where titles.count == 2 { break }
        // article: Networking/GettingStarted
        logic.loadMore() // page 2, the last: fewer items than the page size
        // article end
        for await titles in logic.titles.values where titles.count == 3 { break }
        #expect(logic.titles.value == ["Loft", "Studio", "Villa"])
        #expect(logic.activity.failure.value == nil)
        #expect(logic.isComplete)
    }
}
