import Foundation
import Networking
import Testing

@MainActor
@Suite struct PagingTests {
    func page(_ ids: Range<Int>) -> JSONValue {
        ["items": .array(ids.map { ["id": .number(Double($0))] })]
    }

    @Test func nextPageAdvancesUntilAShortPage() async throws {
        let harness = Harness()
        var api = ListAPI()
        api.pageSize = 2
        let manager = APIManager(api, engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        #expect(manager.isFirstPage)
        #expect(!manager.isLastPage)
        #expect(manager.loadNextPage())
        #expect(!manager.loadNextPage())
        harness.transport.respond(json: page(0..<2))
        await harness.flush()
        #expect(manager.isFirstPage)
        #expect(!manager.isLastPage)
        #expect(manager.loadNextPage())
        harness.transport.respond(json: page(2..<3))
        await harness.flush()
        #expect(!manager.isFirstPage)
        #expect(manager.isLastPage)
        #expect(!manager.loadNextPage())
        let pages = harness.transport.requests.map { $0.queryParameters["page"] }
        #expect(pages == ["1", "2"])
        #expect(harness.transport.requests.allSatisfy { $0.queryParameters["page_size"] == "2" })
        #expect(manager.loadData())
        #expect(harness.transport.requests.last?.queryParameters["page"] == "1")
    }

    @Test func aFailedPageKeepsThePageHeld() async {
        let harness = Harness()
        var api = ListAPI()
        api.pageSize = 2
        let manager = APIManager(api, engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.loadData()
        harness.transport.respond(json: page(0..<2))
        await harness.flush()
        manager.loadNextPage()
        harness.transport.respond(.failure(.timeout))
        await harness.flush()
        manager.loadNextPage()
        #expect(harness.transport.requests.last?.queryParameters["page"] == "2")
    }

    @Test func anAPIWithoutPagesHasNoNextPage() async {
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        #expect(!manager.loadNextPage())
        #expect(manager.isFirstPage && manager.isLastPage)
    }
}

@MainActor
@Suite struct CacheTests {
    func cachedManager(_ harness: Harness, policy: CachePolicy = .memory()) -> (APIManager<ListAPI>, RecordingDelegate)
    {
        var api = ListAPI()
        api.cachePolicy = policy
        let manager = APIManager(api, engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        return (manager, delegate)
    }

    @Test func aFreshEntryAnswersWithoutTheNetworkAndSaysSo() async {
        let harness = Harness()
        let (manager, delegate) = cachedManager(harness)
        manager.loadData()
        harness.transport.respond(json: ["items": [1]])
        await harness.flush()
        harness.clock.advance(by: 179)
        manager.loadData()
        await harness.flush()
        #expect(harness.transport.sent.count == 1)
        #expect(delegate.results.map(\.isFromCache) == [false, true])
        #expect(delegate.payloads.last == ["items": [1]])
    }

    @Test func entriesExpireAfterTheirTimeToLive() async {
        let harness = Harness()
        let (manager, _) = cachedManager(harness)
        manager.loadData()
        harness.transport.respond(json: ["items": [1]])
        await harness.flush()
        harness.clock.advance(by: 180)
        manager.loadData()
        #expect(harness.transport.sent.count == 2)
    }

    @Test func ignoringTheCacheForcesARefresh() async {
        let harness = Harness()
        let (manager, delegate) = cachedManager(harness)
        manager.loadData()
        harness.transport.respond(json: ["items": [1]])
        await harness.flush()
        manager.loadData(ignoringCache: true)
        harness.transport.respond(json: ["items": [2]])
        await harness.flush()
        #expect(harness.transport.sent.count == 2)
        manager.loadData()
        await harness.flush()
        #expect(delegate.payloads.last == ["items": [2]])
    }

    @Test func keysIncludeTheParameters() async {
        let harness = Harness()
        let (manager, _) = cachedManager(harness)
        let source = FixedParameters(["city": "a"])
        manager.parameterSource = source
        manager.loadData()
        harness.transport.respond(json: ["items": []])
        await harness.flush()
        source.parameters = ["city": "b"]
        manager.loadData()
        #expect(harness.transport.sent.count == 2)
        #expect(ResponseCache.key(service: "s", api: "a", parameters: ["y": "2", "x": "1"]) == "s|a|x=1&y=2")
    }

    @Test func noPolicyMeansNoCaching() async {
        let harness = Harness()
        let (manager, _) = cachedManager(harness, policy: .none)
        manager.loadData()
        harness.transport.respond(json: ["items": []])
        await harness.flush()
        manager.loadData()
        #expect(harness.transport.sent.count == 2)
    }

    @Test func aCachedResponseStillPassesValidation() async throws {
        let cache = ResponseCache()
        let harness = Harness(cache: cache)
        let (manager, delegate) = cachedManager(harness)
        let key = ResponseCache.key(service: "rentals", api: "rentals/list", parameters: [:])
        cache.store(Data(#"{"wrong":1}"#.utf8), for: key, policy: .memory(), now: harness.clock.now)
        manager.loadData()
        await harness.flush()
        #expect(delegate.results == [APIResult(kind: .invalidResponse, message: "items missing", isFromCache: true)])
    }

    @Test func memoryIsBoundedLeastRecentlyUsedFirst() {
        let cache = ResponseCache(capacity: 2)
        let now = Date()
        cache.store(Data("1".utf8), for: "a", policy: .memory(), now: now)
        cache.store(Data("2".utf8), for: "b", policy: .memory(), now: now)
        _ = cache.response(for: "a", policy: .memory(), now: now)
        cache.store(Data("3".utf8), for: "c", policy: .memory(), now: now)
        #expect(cache.count == 2)
        #expect(cache.response(for: "a", policy: .memory(), now: now) != nil)
        #expect(cache.response(for: "b", policy: .memory(), now: now) == nil)
    }

    @Test func diskIsConsultedOnAMemoryMissAndSurvivesANewCache() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let first = ResponseCache(diskStore: FileResponseStore(directory: folder))
        first.store(Data("[1]".utf8), for: "k", policy: .memoryAndDisk(), now: now)
        let second = ResponseCache(diskStore: FileResponseStore(directory: folder))
        #expect(second.response(for: "k", policy: .memory(), now: now) == nil)
        let hit = try #require(second.response(for: "k", policy: .memoryAndDisk(), now: now.addingTimeInterval(10)))
        #expect(hit.body == Data("[1]".utf8))
        #expect(hit.storedAt == now)
        #expect(second.response(for: "k", policy: .memoryAndDisk(), now: now.addingTimeInterval(500)) == nil)
    }

    @Test func aCorruptDiskEntryIsAMissNotACrash() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileResponseStore(directory: folder)
        store.save(CachedResponse(body: Data("x".utf8), storedAt: Date()), for: "k")
        let file = try #require(
            FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).first)
        try Data([1, 2]).write(to: file)
        #expect(store.load("k") == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}

@MainActor
@Suite struct InterceptorTests {
    // @unchecked Sendable: `entries` is only read and written under `lock`; the rest is immutable.
    final class Log: APIInterceptor, @unchecked Sendable {
        let name: String
        let allow: Bool
        private let lock = NSLock()
        private var entries: [String] = []
        let shared: Log?

        init(_ name: String, allow: Bool = true, shared: Log? = nil) {
            self.name = name
            self.allow = allow
            self.shared = shared
        }

        var events: [String] {
            lock.lock()
            defer { lock.unlock() }
            return entries
        }

        func add(_ event: String) {
            let target = shared ?? self
            target.lock.lock()
            target.entries.append("\(name).\(event)")
            target.lock.unlock()
        }

        func shouldCall(_ manager: any APIManaging, parameters: [String: String]) -> Bool {
            add("shouldCall")
            return allow
        }
        func didCall(_ manager: any APIManaging, parameters: [String: String]) { add("didCall") }
        func didReceive(_ manager: any APIManaging, response: HTTPResponse) { add("didReceive") }
        func willSucceed(_ manager: any APIManaging) { add("willSucceed") }
        func didSucceed(_ manager: any APIManaging) { add("didSucceed") }
        func willFail(_ manager: any APIManaging) { add("willFail") }
        func didFail(_ manager: any APIManaging) { add("didFail") }
    }

    @Test func appWideThenPerManagerInTheDocumentedOrder() async {
        let harness = Harness()
        let log = Log("log")
        let app = Log("app", shared: log)
        let own = Log("own", shared: log)
        harness.engine.interceptors = [app]
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.interceptors = [own]
        manager.loadData()
        harness.transport.respond(json: ["items": []])
        await harness.flush()
        manager.loadData()
        harness.transport.respond(json: ["nope": 1])
        await harness.flush()
        #expect(
            log.events == [
                "app.shouldCall", "own.shouldCall", "app.didCall", "own.didCall",
                "app.didReceive", "own.didReceive", "app.willSucceed", "own.willSucceed",
                "app.didSucceed", "own.didSucceed",
                "app.shouldCall", "own.shouldCall", "app.didCall", "own.didCall",
                "app.didReceive", "own.didReceive", "app.willFail", "own.willFail", "app.didFail", "own.didFail",
            ])
    }

    @Test func shouldCallFalseStopsTheCallSilently() async {
        let harness = Harness()
        let manager = APIManager(ListAPI(), engine: harness.engine)
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        manager.interceptors = [Log("veto", allow: false)]
        #expect(!manager.loadData())
        await harness.flush()
        #expect(harness.transport.sent.isEmpty)
        #expect(delegate.kinds.isEmpty)
    }
}
