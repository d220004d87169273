import Dispatch
import Foundation
import Glibc
import Signals
import SignalsTesting
import Synchronization
import Testing

// A randomized model check of the core: random graphs of operators, driven by random
// scripts, compared with `ReferenceModel`, a sequential model of the contract.
//
// - `oneThreadMatchesTheModelExactly`: sends, completions, batches (`withBatchedChanges`),
//   late observers and disposals on one thread, with observers that send to roots or
//   dispose other observers from inside their delivery; every sink must get exactly what
//   the model says.
// - `threadsKeepWhatTheContractPromises`: each root owned by one of two or three threads,
//   which run their scripts at once while disposing sinks; the graph's nodes are let go
//   of half the time, so chains detach while values flow. Checked: deliveries of a node
//   never overlap (3.1); a completion comes at most once and last (4.3); after
//   `dispose()` returns, at most the callback whose turn had begun still runs (4.2); a
//   sink fed by one thread's roots gets exactly the model's events (3.2), a prefix of
//   them if disposed; a sink fed through stateless operators gets each root's values as
//   the model says, in order along a single path (3.1, 3.2).
// - Both: after disposing every sink and letting go of the graph, every node, input and
//   closure is freed (4.5, 4.6, 4.8, 4.9).
//
// A failure prints the graph's seed, the graph and the script. Re-run one graph with
// `MODEL_CHECK_SEED=<seed> swift test --filter ModelCheckTests`; `MODEL_CHECK_GRAPHS=<n>`
// changes how many graphs each test checks, `MODEL_CHECK_STATS=1` prints what a run
// covered. A seed of the concurrent test replays its graph and scripts, not the threads'
// timing: repeat it with `MODEL_CHECK_REPEAT=<n>` (or run it under the thread sanitizer).
//
// Adding an operator: add one `OperatorCase` to `OperatorCase.all` (ModelCheckOperators.swift)
// with its input and output kinds, how to build it over `Signal<Int>`/`Property<Int>`
// inputs, and its model: a closure that gets each event with the input it came on and
// says what the operator sends. Mark it `carriesPrefix`, `isStateless`,
// `subscriptionOrder` or `subscribesWhenBuilt` where the contract says so. A model can
// also send when it starts (`onStart`: a start-once signal, a case without inputs),
// replay values to new observers (`replay`), queue events to itself behind the current
// step (`Effects.later`: an inner that sends at once), and switch its subscriptions
// (`Effects.subscriptions`, from the pipe or property pool). A single-input signal
// operator is checked lifted onto producers too (`Producer.lift`, 7.7a) once its name is
// in `OperatorCase.liftedNames` (ModelCheckLifted.swift), against its own model.
@Suite struct ModelCheckTests {
    static let baseSeed: UInt64 = 0x5EED_0001

    @Test func oneThreadMatchesTheModelExactly() async {
        // Run on a thread of its own, off Swift Testing's pool: under the thread sanitizer on
        // a loaded machine the 3,000 graphs take most of a minute, and a pool thread held
        // that long starves the tests whose detached tasks need it.
        let (report, coverage) = await Self.offThePool { Self.checkGraphsOnOneThread() }
        if let report { Issue.record(Comment(rawValue: report)) }
        coverage.expectEnough(graphs: 3000, checkedPerGraph: 4)
    }

    /// Checks the one-thread graphs; returns the first failure's report, and the coverage.
    static func checkGraphsOnOneThread() -> (String?, Coverage) {
        var coverage = Coverage()
        for seed in Self.seeds(count: 3000, salt: 1) {
            var random = SplitMix64(seed: seed)
            let graph = Graph.random(&random, reactions: true)
            let script = Self.oneThreadScript(for: graph, &random)
            let early = random.shuffled(graph.sinks.indices.filter { graph.sinks[$0].early })
            let failures = Self.checkOneThread(graph: graph, early: early, script: script, coverage: &coverage)
            if !failures.isEmpty {
                let report = Self.describe(
                    failures, seed: seed, graph: graph,
                    script: "observe sinks \(early)\n" + script.map { "  \($0)" }.joined(separator: "\n"))
                return (report, coverage)
            }
        }
        return (nil, coverage)
    }

    @Test func threadsKeepWhatTheContractPromises() async {
        // The graphs run on threads of their own, off Swift Testing's pool, which this
        // test would otherwise block while it waits for them.
        let (report, coverage) = await Self.offThePool { Self.checkGraphsOnThreads() }
        if let report { Issue.record(Comment(rawValue: report)) }
        coverage.expectEnough(graphs: 400, checkedPerGraph: 4)
        // Most graphs must really have had two threads sending at once.
        if coverage.graphs == 400 {
            #expect(coverage.concurrentGraphs >= 200, "graphs with threads at once: \(coverage.concurrentGraphs)")
            #expect(coverage.handedOverGraphs >= 5, "graphs with handed-over values: \(coverage.handedOverGraphs)")
        }
    }

    static func checkGraphsOnThreads() -> (report: String?, coverage: Coverage) {
        var coverage = Coverage()
        for seed in Self.seeds(count: 400, salt: 2) {
            var random = SplitMix64(seed: seed)
            var graph = Graph.random(&random, reactions: false, pipes: 2...3)
            for index in graph.sinks.indices { graph.sinks[index].early = true }
            // Two or three threads, each owning at least one root when there are enough
            // (a thread without a root only disposes).
            let roots = random.shuffled(graph.roots)
            let threads = max(2, min(random.int(2...3), roots.count))
            var owner: [Int: Int] = [:]
            for (index, root) in roots.enumerated() {
                owner[root] = index < threads ? index : random.int(0...(threads - 1))
            }
            let scripts = (0..<threads).map { thread in Self.threadScript(thread, graph, owner, &random) }
            let order = random.shuffled(Array(graph.sinks.indices))
            let releaseNodes = random.chance(50)
            let failures = Self.checkThreads(
                graph: graph, owner: owner, scripts: scripts, order: order, releaseNodes: releaseNodes,
                coverage: &coverage)
            if !failures.isEmpty {
                let described = scripts.enumerated().map { thread, script in
                    "thread \(thread): " + script.map(\.description).joined(separator: "; ")
                }
                let roots = graph.roots.map { "n\($0) on thread \(owner[$0]!)" }.joined(separator: ", ")
                let report = Self.describe(
                    failures, seed: seed, graph: graph,
                    script: "\(roots); observe sinks \(order)\(releaseNodes ? "; nodes let go" : "")\n"
                        + described.joined(separator: "\n"))
                return (report, coverage)
            }
        }
        return (nil, coverage)
    }

    // MARK: - One thread

    static func checkOneThread(graph: Graph, early: [Int], script: [Step], coverage: inout Coverage) -> [String] {
        coverage.count(graph)
        var failures: [String] = []
        do {
            let model = ReferenceModel(graph: graph)
            let real = RealGraph(graph: graph)
            for sink in early {
                model.observe(sink: sink)
                real.observe(sink: sink)
            }
            for step in script {
                let reacting: Bool
                switch step {
                case .send, .complete, .batch: reacting = true
                case .dispose, .observe: reacting = false
                }
                model.reactionsEnabled = reacting
                real.reactionsEnabled = reacting
                model.run(step)
                real.run(step)
            }
            coverage.reactions += model.reactionsRun
            for (index, sink) in real.sinks.enumerated() {
                coverage.checked += model.logs[index].count
                if sink.events != model.logs[index] {
                    failures.append(
                        "sink \(index): expected \(model.logs[index]), got \(sink.events)")
                }
                failures += structuralFailures(of: sink, index: index, lateAllowed: 0)
            }
            real.tearDown()
            failures += leaks(real.tracker)
        }
        return failures
    }

    static func oneThreadScript(for graph: Graph, _ random: inout SplitMix64) -> [Step] {
        var script: [Step] = []
        let roots = graph.roots
        for _ in 0..<random.int(8...30) {
            let root = random.element(roots)
            switch random.int(0...99) {
            case 0..<8 where graph.nodes[root].isPipe: script.append(.complete(root: root))
            case 8..<16: script.append(.dispose(sink: random.int(0...(graph.sinks.count - 1))))
            case 16..<30:
                // Several roots changed in one batch (1.14).
                let steps = (0..<random.int(2...4)).map { _ -> Step in
                    let root = random.element(roots)
                    return .send(root: root, value: Values.tag(root: root) | random.int(0...7))
                }
                script.append(.batch(steps))
            default: script.append(.send(root: root, value: Values.tag(root: root) | random.int(0...7)))
            }
        }
        for sink in graph.sinks.indices where !graph.sinks[sink].early {
            script.insert(.observe(sink: sink), at: random.int(0...script.count))
        }
        return script
    }

    // MARK: - Threads

    static func threadScript(_ thread: Int, _ graph: Graph, _ owner: [Int: Int], _ random: inout SplitMix64)
        -> [Step]
    {
        let roots = graph.roots.filter { owner[$0] == thread }
        var script: [Step] = []
        for _ in 0..<random.int(100...250) {
            let percent = random.int(0...999)
            if percent < (roots.isEmpty ? 20 : 8) {
                script.append(.dispose(sink: random.int(0...(graph.sinks.count - 1))))
                continue
            }
            guard !roots.isEmpty else { continue }
            let root = random.element(roots)
            if percent < 14, graph.nodes[root].isPipe {
                script.append(.complete(root: root))
            } else {
                script.append(.send(root: root, value: Values.tag(root: root) | random.int(0...7)))
            }
        }
        return script
    }

    static func checkThreads(
        graph: Graph, owner: [Int: Int], scripts: [[Step]], order: [Int], releaseNodes: Bool,
        coverage: inout Coverage
    ) -> [String] {
        coverage.count(graph)
        // The model runs the threads' scripts one after the other, without the disposals.
        let model = ReferenceModel(graph: graph)
        for sink in order { model.observe(sink: sink) }
        for step in scripts.joined() {
            if case .dispose = step { continue }
            model.run(step)
        }
        var failures: [String] = []
        do {
            let real = RealGraph(graph: graph)
            for sink in order { real.observe(sink: sink) }
            real.yieldsInDeliveries = true
            real.owners = owner
            if releaseNodes { real.releaseNodes() }
            let sending = Atomic(0)
            let stepsAtOnce = Atomic(0)
            onThreadsAtOnce(scripts.count) { thread in
                real.runsThread(thread)
                sending.add(1, ordering: .relaxed)
                for (index, step) in scripts[thread].enumerated() {
                    if sending.load(ordering: .relaxed) > 1 { stepsAtOnce.add(1, ordering: .relaxed) }
                    real.run(step)
                    // Hand the core over now and then: on a loaded machine the threads
                    // would otherwise mostly run one after the other.
                    if index % 5 == thread { sched_yield() }
                }
                sending.subtract(1, ordering: .relaxed)
            }
            if stepsAtOnce.load(ordering: .relaxed) > 0 { coverage.concurrentGraphs += 1 }
            if real.deliveredByAnotherThread.load(ordering: .relaxed) > 0 { coverage.handedOverGraphs += 1 }
            for (index, sink) in real.sinks.enumerated() {
                failures += structuralFailures(of: sink, index: index, lateAllowed: 1)
                failures += valueFailures(
                    of: sink, index: index, expected: model.logs[index], graph: graph, owner: owner,
                    coverage: &coverage)
            }
            real.tearDown()
            failures += leaks(real.tracker)
        }
        return failures
    }

    /// What the model decides for a sink whatever the threads did.
    static func valueFailures(
        of sink: RealSink, index: Int, expected: [SinkEvent], graph: Graph, owner: [Int: Int],
        coverage: inout Coverage
    ) -> [String] {
        let actual = sink.events
        let node = graph.sinks[index].node
        let roots = graph.rootsFeeding(node)
        let disposed = sink.wasDisposed
        if Set(roots.map { owner[$0]! }).count <= 1 {
            // Fed by one thread (or by no root: a start-once signal sends when observed,
            // before the threads start): everything happens in that thread's order.
            coverage.checked += expected.count
            let matches = disposed ? isPrefix(actual, of: expected) : actual == expected
            return matches
                ? []
                : ["sink \(index) (one thread\(disposed ? ", disposed" : "")): expected \(expected), got \(actual)"]
        }
        guard graph.isStateless(node) else { return [] }
        coverage.checked += expected.count
        var failures: [String] = []
        for tag in [0] + roots.sorted().map({ Values.tag(root: $0) >> Values.payloadBits }) {
            let mine: ([SinkEvent]) -> [Int] = { events in
                events.compactMap { event in
                    guard case .value(let value) = event, Values.tag(of: value) == tag else { return nil }
                    return value
                }
            }
            let (want, got) = (mine(expected), mine(actual))
            let inOrder = tag == 0 || graph.paths(from: tag - 1, to: node) == 1
            let matches: Bool
            switch (inOrder, disposed) {
            case (true, false): matches = got == want
            case (true, true): matches = want.starts(with: got)
            case (false, false): matches = got.sorted() == want.sorted()
            case (false, true): matches = isSubmultiset(got, of: want)
            }
            if !matches {
                failures.append(
                    "sink \(index) (stateless, values of tag \(tag)\(inOrder ? " in order" : "")"
                        + "\(disposed ? ", disposed" : "")): expected \(want), got \(got)")
            }
        }
        if !disposed, actual.contains(.completed) != expected.contains(.completed) {
            failures.append("sink \(index) (stateless): expected \(expected), got \(actual) (completion)")
        }
        return failures
    }

    /// Whether what a sink disposed from another thread got is a prefix of what the model
    /// says. A sink is two observers (values, then completion), disposed in that order, so
    /// its completion may still come after its values observer is gone: the values must be
    /// a prefix, and a completion only one the model has too.
    static func isPrefix(_ actual: [SinkEvent], of expected: [SinkEvent]) -> Bool {
        let values = actual.filter { $0 != .completed }
        return expected.starts(with: values) && (!actual.contains(.completed) || expected.contains(.completed))
    }

    static func isSubmultiset(_ small: [Int], of large: [Int]) -> Bool {
        var counts: [Int: Int] = [:]
        for value in large { counts[value, default: 0] += 1 }
        for value in small {
            counts[value, default: 0] -= 1
            if counts[value]! < 0 { return false }
        }
        return true
    }

    // MARK: - Both

    static func structuralFailures(of sink: RealSink, index: Int, lateAllowed: Int) -> [String] {
        var failures: [String] = []
        let events = sink.events
        if sink.overlaps.load(ordering: .relaxed) > 0 {
            failures.append("sink \(index): a delivery began while another of the same node was running")
        }
        let completions = events.filter { $0 == .completed }.count
        if completions > 1 || (completions == 1 && events.last != .completed) {
            failures.append("sink \(index): completion not once and last: \(events)")
        }
        let late = (sink.lateValues.load(ordering: .relaxed), sink.lateCompletions.load(ordering: .relaxed))
        if late.0 > lateAllowed || late.1 > lateAllowed {
            failures.append("sink \(index): \(late) callbacks began after dispose() returned")
        }
        return failures
    }

    static func leaks(_ tracker: ReleaseTracker) -> [String] {
        let alive = tracker.alive
        return alive.isEmpty ? [] : ["still alive after disposing and letting go of everything: \(alive)"]
    }

    // MARK: - Coverage

    /// What a run exercised, so that a generator that stops making some operator, or
    /// graphs that check nothing, fails the test instead of passing it quietly.
    struct Coverage {
        var graphs = 0
        var operators: [String: Int] = [:]
        /// Sink events compared with the model (exactly, or per root).
        var checked = 0
        var reactions = 0
        /// Graphs in which two threads were sending at once.
        var concurrentGraphs = 0
        /// Graphs in which a thread delivered a value another thread had sent.
        var handedOverGraphs = 0

        mutating func count(_ graph: Graph) {
            graphs += 1
            for name in Set(graph.nodes.compactMap { $0.operatorCase?.name }) { operators[name, default: 0] += 1 }
        }

        func expectEnough(graphs planned: Int, checkedPerGraph: Int, sourceLocation: SourceLocation = #_sourceLocation)
        {
            if ProcessInfo.processInfo.environment["MODEL_CHECK_STATS"] != nil {
                print(
                    "model check: \(graphs) graphs (\(concurrentGraphs) with threads at once, "
                        + "\(handedOverGraphs) with values delivered by another thread), "
                        + "\(checked) events checked, \(reactions) reactions, \(operators)")
            }
            guard graphs == planned else { return }
            let rare = OperatorCase.all.map(\.name).filter { operators[$0, default: 0] < graphs / 40 }
            #expect(rare.isEmpty, "operators in too few graphs: \(rare)", sourceLocation: sourceLocation)
            #expect(checked >= graphs * checkedPerGraph, "events checked: \(checked)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Seeds and reports

    /// The seeds of the graphs to check: `MODEL_CHECK_SEED` alone if set (repeated
    /// `MODEL_CHECK_REPEAT` times, for a failure that depends on the threads' timing), else
    /// `count` (or `MODEL_CHECK_GRAPHS`) seeds drawn from the base seed.
    static func seeds(count: Int, salt: UInt64) -> [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["MODEL_CHECK_SEED"] {
            let seed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            let repeats = environment["MODEL_CHECK_REPEAT"].flatMap { Int($0) } ?? 1
            return Array(repeating: seed ?? 0, count: max(1, repeats))
        }
        let count = environment["MODEL_CHECK_GRAPHS"].flatMap { Int($0) } ?? count
        var random = SplitMix64(seed: baseSeed &+ salt)
        return (0..<count).map { _ in random.next() }
    }

    static func describe(_ failures: [String], seed: UInt64, graph: Graph, script: String) -> String {
        let seedText = "0x" + String(seed, radix: 16)
        return """
            model check failed for seed \(seedText) (re-run: MODEL_CHECK_SEED=\(seedText))
            \(failures.joined(separator: "\n"))
            graph:
            \(graph)
            script:
            \(script)
            """
    }

    /// Runs `body` on a thread of its own and returns what it returns.
    static func offThePool<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// Runs `body(index)` on `count` new threads, released together once all have started,
    /// and returns when all are done.
    ///
    /// Woken threads start one after another; a short spin where they wait for each other
    /// (bounded, as the machine may have fewer cores than threads) lines them up.
    static func onThreadsAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let arrived = Atomic(0)
        for index in 0..<count {
            done.enter()
            Thread {
                ready.signal()
                go.wait()
                arrived.add(1, ordering: .acquiringAndReleasing)
                var spins = 0
                while arrived.load(ordering: .acquiring) < count, spins < 100_000 { spins += 1 }
                body(index)
                done.leave()
            }.start()
        }
        for _ in 0..<count { ready.wait() }
        for _ in 0..<count { go.signal() }
        done.wait()
    }
}
