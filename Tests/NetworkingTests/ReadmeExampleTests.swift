import Foundation
import Networking
import Testing

// The README's networking example, with waits for the delegate added.

private struct RentalListAPI: APIDefinition {
    let serviceName = "rentals"
    let methodName = "rentals/list"
    let pageSize: Int? = 2
    let cachePolicy = CachePolicy.memory()
}

private struct ListingTitleReformer: APIReformer {
    func reform(_ data: JSONValue, from manager: any APIManaging) -> [String] {
        (data["items"]?.arrayValue ?? []).compactMap { $0["title"]?.stringValue }
    }
}

@MainActor
private final class ListingLogic: APIManagerDelegate, APIManagerParameterSource {
    let manager: APIManager<RentalListAPI>
    private(set) var titles: [String] = []
    private(set) var problem: String?
    let landed = Arrivals()

    init(engine: APIEngine) {
        manager = APIManager(RentalListAPI(), engine: engine)
        manager.delegate = self
        manager.parameterSource = self
    }

    func parameters(for manager: any APIManaging) -> [String: String] { ["city": "shanghai"] }

    func apiManagerDidSucceed(_ manager: any APIManaging) {
        titles += manager.fetchData(with: ListingTitleReformer())
        landed.signal()
    }

    func apiManagerDidFail(_ manager: any APIManaging) {
        problem = manager.lastResult?.message
        landed.signal()
    }
}

@MainActor
@Suite struct NetworkingReadmeExampleTests {
    @Test func networkingInOneExample() async {
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
        let logic = ListingLogic(engine: engine)
        logic.manager.loadData()
        #expect(await logic.landed.wait(seconds: 5))
        logic.manager.loadNextPage()
        #expect(await logic.landed.wait(seconds: 5))
        #expect(logic.titles == ["Loft", "Studio", "Villa"])
        #expect(logic.problem == nil)
        #expect(logic.manager.isLastPage)
    }
}
