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

// A reformer turns the raw data into what a view needs.
struct RentalTitlesReformer: APIReformer {
    func reform(_ data: JSONValue, from manager: any APIManaging) -> [String] {
        (data["items"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
    }
}

// The logic is the manager's one delegate and its parameter source; its state is
// properties a controller binds.
@MainActor
final class RentalTitlesLogic: APIManagerDelegate, APIManagerParameterSource {
    let titles: Property<[String]>
    let problem: Property<String?>
    private let titlesState = MutableProperty<[String]>([])
    private let problemState = MutableProperty<String?>(nil)
    private let manager: APIManager<RentalTitlesAPI>

    init(engine: APIEngine) {
        titles = Property(titlesState)
        problem = Property(problemState)
        manager = APIManager(RentalTitlesAPI(), engine: engine)
        manager.delegate = self
        manager.parameterSource = self
    }

    func load() { manager.loadData() }
    func loadMore() { manager.loadNextPage() }
    var isComplete: Bool { manager.isLastPage }

    func parameters(for manager: any APIManaging) -> [String: String] { ["city": "shanghai"] }

    func apiManagerDidSucceed(_ manager: any APIManaging) {
        titlesState.value += manager.fetchData(with: RentalTitlesReformer())
    }

    func apiManagerDidFail(_ manager: any APIManaging) {
        problemState.value = manager.lastResult?.message
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
        logic.load() // page 1; the delegate is called on the main actor when it lands
        // article end
        for await titles in logic.titles.values where titles.count == 2 { break }
        // article: Networking/GettingStarted
        logic.loadMore() // page 2, the last: fewer items than the page size
        // article end
        for await titles in logic.titles.values where titles.count == 3 { break }
        #expect(logic.titles.value == ["Loft", "Studio", "Villa"])
        #expect(logic.problem.value == nil)
        #expect(logic.isComplete)
    }
}
