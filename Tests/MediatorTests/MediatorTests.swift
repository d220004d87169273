import Dispatch
import Foundation
import Mediator
import Testing

/// A stand-in for a business module's screen.
final class ListingDetailScreen {
    let id: Int
    init(id: Int) { self.id = id }
}

/// The listing module's target: the only thing other modules reach.
final class ListingTarget: MediatorTarget {
    func registerActions(_ actions: TargetActions) {
        actions.on("detail", allowsRemoteCalls: true) { params in
            guard let id = params.int("id") else { throw MediatorError.badParameters("id must be a number") }
            return ListingDetailScreen(id: id)
        }
        actions.on("detailV2", allowsRemoteCalls: true) { params in
            ListingDetailScreen(id: (params.int("id") ?? 0) + 1_000)
        }
        actions.on("deleteAll") { _ in nil }
        actions.on("echo", allowsRemoteCalls: true) { params in params }
    }
}

/// The listing module's "category": typed wrappers, so callers never spell names.
extension Mediator {
    func listingDetail(id: Int) -> ListingDetailScreen? {
        perform(target: "listing", action: "detail", params: ["id": id]).value(as: ListingDetailScreen.self)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
    var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

func makeMediator(keepsTarget: Bool = true, store: (any RoutePatchStore)? = nil) -> Mediator {
    let mediator = Mediator(scheme: "homes", patchStore: store)
    mediator.register(target: "listing", keepsTarget: keepsTarget) { ListingTarget() }
    return mediator
}

@Suite struct RegistrationTests {
    @Test func nativeCallsReturnTheActionsValue() {
        let mediator = makeMediator()
        #expect(mediator.listingDetail(id: 7)?.id == 7)
        if case .done = mediator.perform(target: "listing", action: "deleteAll") {
        } else {
            Issue.record("an action returning nothing is .done")
        }
        #expect(mediator.hasTarget("listing"))
        #expect(!mediator.hasTarget("favorites"))
    }

    /// A target that runs `onFree` when it is freed.
    final class FreedTarget: MediatorTarget {
        let onFree: () -> Void
        init(onFree: @escaping () -> Void) { self.onFree = onFree }
        func registerActions(_ actions: TargetActions) { actions.on("ping") { _ in nil } }
        deinit { onFree() }
    }

    @Test func aKeptTargetReplacedByANewRegistrationIsFreedAfterTheMediatorsLock() {
        // Freed under the lock, the old target's deinit, which asks the mediator, would
        // wait for that lock forever.
        let mediator = Mediator(scheme: "homes")
        let asked = Counter()
        mediator.register(target: "pinger") {
            FreedTarget { [weak mediator] in if mediator?.hasTarget("pinger") == true { _ = asked.next() } }
        }
        _ = mediator.perform(target: "pinger", action: "ping")
        #expect(asked.current == 0, "the first target is kept")
        mediator.register(target: "pinger") { ListingTarget() }
        #expect(asked.current == 1, "the first target was freed, and asked the mediator")
    }

    @Test func targetsAreMadeLazilyAndKeptWhenAsked() {
        for keepsTarget in [true, false] {
            let made = Counter()
            let mediator = Mediator(scheme: "homes")
            mediator.register(target: "listing", keepsTarget: keepsTarget) {
                _ = made.next()
                return ListingTarget()
            }
            #expect(made.current == 0)
            _ = mediator.listingDetail(id: 1)
            _ = mediator.listingDetail(id: 2)
            #expect(made.current == (keepsTarget ? 1 : 2))
        }
    }

    @Test func notFoundIsAValue() {
        let mediator = makeMediator()
        #expect(mediator.perform(target: "nowhere", action: "x").notFound?.reason == .unknownTarget)
        #expect(mediator.perform(target: "listing", action: "fly").notFound?.reason == .unknownAction)
        let bad = mediator.perform(target: "listing", action: "detail", params: ["id": "seven"]).notFound
        #expect(bad?.reason == .badParameters("id must be a number"))
        #expect(bad?.description == "listing/detail cannot open: id must be a number")
    }

    @Test func concurrentCallsAndRegistrationsAreSafe() {
        let mediator = makeMediator()
        let found = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for step in 0..<500 {
                if index == 0 && step % 50 == 0 {
                    mediator.register(target: "extra\(step)") { ListingTarget() }
                }
                if mediator.listingDetail(id: step)?.id == step { _ = found.next() }
                _ = mediator.open(url: "homes://listing/detail?id=\(step)")
            }
        }
        #expect(found.current == 8 * 500)
    }

    @Test(.tags(.regression)) func aKeptTargetIsMadeOnceUnderConcurrentFirstCalls() {
        for _ in 0..<20 {
            let made = Counter()
            let mediator = Mediator(scheme: "homes")
            mediator.register(target: "listing") {
                _ = made.next()
                Thread.sleep(forTimeInterval: 0.001)
                return ListingTarget()
            }
            DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = mediator.listingDetail(id: 1) }
            #expect(made.current == 1)
        }
    }

    @Test(.tags(.regression)) func aTargetMadeForAnOldRegistrationIsNotKeptForANewOne() {
        final class Named: MediatorTarget {
            let name: String
            init(_ name: String) { self.name = name }
            func registerActions(_ actions: TargetActions) {
                actions.on("who") { [name] _ in name }
            }
        }
        let mediator = Mediator(scheme: "homes")
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        mediator.register(target: "t") {
            entered.signal()
            release.wait()
            return Named("old")
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = mediator.perform(target: "t", action: "who")
            done.signal()
        }
        entered.wait()
        mediator.register(target: "t") { Named("new") }
        release.signal()
        done.wait()
        #expect(mediator.perform(target: "t", action: "who").value(as: String.self) == "new")
    }
}

@Suite struct URLTests {
    @Test func urlCallsShareTheNativePath() {
        let mediator = makeMediator()
        #expect(mediator.open(url: "homes://listing/detail?id=42").value(as: ListingDetailScreen.self)?.id == 42)
        #expect(
            mediator.open(url: URL(string: "HOMES://listing/detail?id=5")!).value(as: ListingDetailScreen.self)?.id == 5
        )
    }

    @Test func percentDecodingRepeatedKeysAndEmptyValues() throws {
        let mediator = makeMediator()
        let params = try #require(
            mediator.open(url: "homes://listing/echo?q=%E4%B8%8A%E6%B5%B7%20%26x&tag=a&tag=b&empty=&flag")
                .value(as: MediatorParameters.self))
        #expect(params.string("q") == "上海 &x")
        #expect(params.strings("tag") == ["a", "b"])
        #expect(params.string("tag") == "b")
        #expect(params.string("empty") == "")
        #expect(params.string("flag") == "")
        #expect(params.bool("flag") == nil)
    }

    @Test func badURLsAreNotFoundValues() {
        let mediator = makeMediator()
        for text in [
            "", "homes://", "homes://listing", "homes://listing/detail/extra", "other://listing/detail",
            "homes:listing/detail", "::::", "homes://%zz/detail",
        ] {
            #expect(mediator.open(url: text).notFound != nil, "\(text)")
        }
    }

    @Test func nativeOnlyActionsRefuseRemoteCalls() {
        let mediator = makeMediator()
        #expect(mediator.open(url: "homes://listing/deleteAll").notFound?.reason == .remoteCallRefused)
        if case .done = mediator.perform(target: "listing", action: "deleteAll") {
        } else {
            Issue.record("native calls may run it")
        }
    }

    final class EchoTarget: MediatorTarget {
        func registerActions(_ actions: TargetActions) {
            actions.on("a%41", allowsRemoteCalls: true) { _ in "percent" }
            actions.on("aA", allowsRemoteCalls: true) { _ in "decoded twice" }
            actions.on("50%off", allowsRemoteCalls: true) { _ in "sale" }
            actions.on("a/b", allowsRemoteCalls: true) { _ in "slash" }
        }
    }

    @Test(.tags(.regression)) func pathsAreDecodedOnce() {
        let mediator = Mediator(scheme: "homes")
        mediator.register(target: "e") { EchoTarget() }
        #expect(mediator.open(url: "homes://e/a%2541").value(as: String.self) == "percent")
        #expect(mediator.open(url: "homes://e/50%25off").value(as: String.self) == "sale")
        #expect(mediator.open(url: "homes://e/a%2Fb").value(as: String.self) == "slash")
    }
}

@Suite struct RoutePatchTests {
    final class MemoryStore: RoutePatchStore, @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Data?
        func load() -> Data? {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        func save(_ patch: Data) {
            lock.lock()
            stored = patch
            lock.unlock()
        }
    }

    let valid = Data(
        """
        {"version": 2, "routes": [
          {"url": "homes://listing/detail", "target": "listing", "action": "detailV2"},
          {"url": "homes://listing/echo", "disabled": true, "message": "Echo is resting."}
        ]}
        """.utf8)

    @Test func aValidPatchRemapsAndDisablesAndIsStored() throws {
        let store = MemoryStore()
        let mediator = makeMediator(store: store)
        try mediator.apply(patch: valid)
        #expect(mediator.routeVersion == 2)
        #expect(mediator.open(url: "homes://listing/detail?id=1").value(as: ListingDetailScreen.self)?.id == 1_001)
        #expect(mediator.open(url: "homes://listing/echo").notFound?.reason == .disabled("Echo is resting."))
        #expect(store.load() == valid)

        let nextLaunch = makeMediator(store: store)
        #expect(nextLaunch.restoreStoredPatch() == nil)
        #expect(nextLaunch.listingDetail(id: 3)?.id == 1_003)
    }

    @Test(arguments: [
        ("not json", "the route patch is not a JSON object"),
        (#"{"routes": []}"#, "the route patch needs a positive integer \"version\""),
        (#"{"version": 1}"#, "the route patch needs a \"routes\" array of objects"),
        (
            #"{"version": 1, "routes": [{"url": "web://x/y", "target": "listing", "action": "detail"}]}"#,
            "route 1: \"url\" must be homes://target/action"
        ),
        (
            #"{"version": 1, "routes": [{"url": "homes://a/b", "disabled": true}]}"#,
            "route 1: a disabled route needs a \"message\" to show"
        ),
        (
            #"{"version": 1, "routes": [{"url": "homes://a/b", "target": "nowhere", "action": "x"}]}"#,
            "route 1: no target nowhere"
        ),
        (
            #"{"version": 1, "routes": [{"url": "homes://a/b", "target": "listing", "action": "deleteAll"}]}"#,
            "route 1: listing/deleteAll is not allowed from URLs"
        ),
    ])
    func invalidPatchesAreRejectedWholeWithAClearError(patch: String, message: String) throws {
        let store = MemoryStore()
        let mediator = makeMediator(store: store)
        try mediator.apply(patch: valid)
        #expect(throws: RoutePatchError(message: message)) { try mediator.apply(patch: Data(patch.utf8)) }
        #expect(mediator.routeVersion == 2)
        #expect(store.load() == valid)
    }

    @Test func aPartlyValidPatchChangesNothing() throws {
        let mediator = makeMediator()
        let partial = Data(
            """
            {"version": 3, "routes": [
              {"url": "homes://listing/detail", "disabled": true, "message": "off"},
              {"url": "homes://listing/echo", "target": "listing", "action": "missing"}
            ]}
            """.utf8)
        #expect(throws: RoutePatchError.self) { try mediator.apply(patch: partial) }
        #expect(mediator.listingDetail(id: 4)?.id == 4)
        #expect(mediator.routeVersion == 0)
    }

    @Test func aCorruptStoredPatchIsReportedAndIgnored() {
        let store = MemoryStore()
        store.save(Data("{broken".utf8))
        let mediator = makeMediator(store: store)
        #expect(mediator.restoreStoredPatch() != nil)
        #expect(mediator.listingDetail(id: 9)?.id == 9)
    }

    @Test func theFileStoreKeepsThePatch() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "routes-\(UUID().uuidString)/patch.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let mediator = makeMediator(store: FileRoutePatchStore(url: url))
        try mediator.apply(patch: valid)
        #expect(FileRoutePatchStore(url: url).load() == valid)
    }

    @Test(.tags(.regression)) func aPatchCannotRemapOntoARouteItDisablesOrRemaps() {
        let mediator = makeMediator()
        let sneaky = Data(
            """
            {"version": 1, "routes": [
              {"url": "homes://listing/detail", "disabled": true, "message": "off"},
              {"url": "homes://listing/echo", "target": "listing", "action": "detail"}
            ]}
            """.utf8)
        #expect(throws: RoutePatchError.self) { try mediator.apply(patch: sneaky) }
        #expect(mediator.listingDetail(id: 1)?.id == 1)
    }

    @Test(.tags(.regression)) func anOlderPatchIsRefused() throws {
        let mediator = makeMediator()
        try mediator.apply(patch: Data(#"{"version": 5, "routes": []}"#.utf8))
        #expect(throws: RoutePatchError.self) { try mediator.apply(patch: Data(#"{"version": 4, "routes": []}"#.utf8)) }
        try mediator.apply(patch: Data(#"{"version": 5, "routes": []}"#.utf8))
        #expect(mediator.routeVersion == 5)
    }
}

/// The file store writes a patch whole, through a temporary the loader never reads, and
/// leaves no temporaries behind, even those of a writer that died.
@Suite struct FileRoutePatchStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
    var url: URL { folder.appendingPathComponent("routes.json") }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// The id of a process that has exited.
    func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func savingReplacesTheFileAndLeavesNothingElse() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileRoutePatchStore(url: url)
        store.save(Data("first".utf8))
        store.save(Data("second".utf8))
        #expect(store.load() == Data("second".utf8))
        #expect(try contents() == ["routes.json"])
    }

    @Test func temporariesOfDeadWritersAreRemovedAndNeverLoaded() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("kept".utf8).write(to: url)
        let dead = ".routes.json.\(try deadProcessID()).1a2b.tmp"
        let live = ".routes.json.\(getpid()).3c4d.tmp"
        let other = ".other.json.\(try deadProcessID()).5e6f.tmp"
        for name in [dead, live, other] {
            try Data("{half a patch".utf8).write(to: folder.appendingPathComponent(name))
        }
        let store = FileRoutePatchStore(url: url)
        #expect(try contents() == [other, live, "routes.json"].sorted())
        #expect(store.load() == Data("kept".utf8))
    }
}

@Suite struct FuzzTests {
    @Test func randomURLsAndParametersNeverCrash() {
        let mediator = makeMediator()
        var generator = SplitMix(seed: 0x5eed)
        let alphabet = Array("homes:/?&=%#abcdefglistingdetailecho0123456789-_.~ 中😀+;@!$'()*,[]\\\"")
        var outcomes = 0
        for _ in 0..<5_000 {
            let length = Int(generator.next() % 48)
            var text = generator.next() % 2 == 0 ? "homes://listing/" : ""
            for _ in 0..<length { text.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
            switch mediator.open(url: text) {
            case .value, .done, .notFound: outcomes += 1
            }
            let action = ["detail", "echo", "deleteAll", "zz"][Int(generator.next() % 4)]
            let value: any Sendable = generator.next() % 2 == 0 ? text : Int(truncatingIfNeeded: generator.next())
            switch mediator.perform(
                target: generator.next() % 5 == 0 ? text : "listing", action: action, params: ["id": value])
            {
            case .value, .done, .notFound: outcomes += 1
            }
        }
        #expect(outcomes == 10_000)
    }
}

/// A small deterministic random generator.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
