import Foundation
import Glibc
import Signals
import SignalsTesting
import Synchronization

/// What one sink observed of the real graph, and what it saw go wrong, from any thread.
// Safe to share: `events`, `disposables` and `budget` are touched only under `lock`; the
// rest is atomic.
final class RealSink: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [SinkEvent] = []
    private var disposables: [Disposable] = []
    private var budget: Int
    /// Deliveries that began while another delivery of the same node was running.
    let overlaps = Atomic<Int>(0)
    /// Callbacks that began after `dispose()` had returned, per observer (values, completion).
    let lateValues = Atomic<Int>(0)
    let lateCompletions = Atomic<Int>(0)
    private let disposeReturned = Atomic<Bool>(false)
    private(set) var wasDisposed = false

    init(budget: Int) {
        self.budget = budget
    }

    var events: [SinkEvent] { lock.withLock { recorded } }

    func keep(_ disposable: Disposable) {
        lock.withLock { disposables.append(disposable) }
    }

    /// Records `event`; returns whether the sink's reaction may fire (its budget allows),
    /// and how many events the sink has recorded.
    @discardableResult
    func record(_ event: SinkEvent) -> (reacts: Bool, count: Int) {
        if disposeReturned.load(ordering: .acquiring) {
            if event == .completed {
                lateCompletions.add(1, ordering: .relaxed)
            } else {
                lateValues.add(1, ordering: .relaxed)
            }
        }
        return lock.withLock {
            recorded.append(event)
            return (budget > 0, recorded.count)
        }
    }

    func spendBudget() {
        lock.withLock { budget -= 1 }
    }

    /// Disposes the sink's observers (values first), then notes that `dispose()` returned.
    func dispose() {
        let held = lock.withLock {
            wasDisposed = true
            return disposables
        }
        for disposable in held { disposable.dispose() }
        disposeReturned.store(true, ordering: .releasing)
    }
}

/// Counts the deliveries running on one node, to catch two at once.
final class NodeGuard: Sendable {
    private let running = Atomic<Int>(0)

    /// Runs `body`, noting in `sink` whether another delivery of the node was running.
    func enter(_ sink: RealSink, _ body: () -> Void) {
        if running.add(1, ordering: .acquiringAndReleasing).newValue > 1 { sink.overlaps.add(1, ordering: .relaxed) }
        body()
        running.subtract(1, ordering: .acquiringAndReleasing)
    }
}

/// The real graph: the `Signals` objects a `Graph` describes, its roots' inputs, and its
/// sinks, with a tracker of everything that must be freed at the end.
// Safe to share: built and changed on one thread; the threads of the concurrent check only
// read `inputs`, `properties` and `sinks`, which do not change while they run.
final class RealGraph: @unchecked Sendable {
    let graph: Graph
    private(set) var built: [Built?]
    private(set) var inputs: [Int: Signal<Int>.Input] = [:]
    private(set) var properties: [Int: MutableProperty<Int>] = [:]
    let sinks: [RealSink]
    private let guards: [NodeGuard]
    let tracker = ReleaseTracker()
    /// Reactions run only while a script step sends (see `ReferenceModel.reactionsEnabled`).
    var reactionsEnabled = false
    /// Every third callback of a sink yields the processor mid-delivery, so that other
    /// threads send while this one delivers (set before the threads start).
    var yieldsInDeliveries = false
    /// For the concurrent check: the thread owning each root, and each thread's id once it
    /// runs; values that a thread other than their sender delivered are counted.
    var owners: [Int: Int] = [:]
    private let threadIDs = Locked<[Int: pthread_t]>([:])
    let deliveredByAnotherThread = Atomic(0)

    /// Notes that the calling thread is thread `index` of the concurrent check.
    func runsThread(_ index: Int) {
        threadIDs.withLock { $0[index] = pthread_self() }
    }

    init(graph: Graph) {
        self.graph = graph
        sinks = graph.sinks.map { RealSink(budget: $0.reaction?.budget ?? 0) }
        guards = graph.nodes.map { _ in NodeGuard() }
        var built: [Built] = []
        for (index, node) in graph.nodes.enumerated() {
            switch node.root {
            case .pipe:
                let (signal, input) = Signal<Int>.pipe()
                inputs[index] = input
                tracker.track(input, "n\(index)'s input")
                built.append(.signal(signal))
            case .property(let initial):
                let property = MutableProperty(initial)
                properties[index] = property
                built.append(.property(property))
            case nil:
                let token = ClosureToken()
                tracker.track(token, "n\(index)'s closures")
                let pool = graph.pipes.map { built[$0].signal }
                let propertyPool = graph.propertyRoots.map { built[$0].property }
                let context = BuildContext(
                    inputs: node.inputs.map { built[$0] }, parameter: node.parameter, pool: pool,
                    propertyPool: propertyPool, token: token)
                built.append(node.operatorCase!.build(context))
            }
            tracker.track(built[index].object, "n\(index)")
        }
        self.built = built
    }

    // MARK: - Script steps

    func run(_ step: Step) {
        switch step {
        case .send(let root, let value): send(root, value)
        case .complete(let root): inputs[root]?.sendCompleted()
        case .dispose(let sink): sinks[sink].dispose()
        case .observe(let sink): observe(sink: sink)
        case .batch(let steps): withBatchedChanges { steps.forEach(run) }
        }
    }

    func send(_ root: Int, _ value: Int) {
        if let input = inputs[root] {
            input.send(value)
        } else {
            properties[root]!.value = value
        }
    }

    /// Adds sink `sink`'s observers, unless it was disposed.
    func observe(sink index: Int) {
        let sink = sinks[index]
        guard !sink.wasDisposed, let built = built[graph.sinks[index].node] else { return }
        let nodeGuard = guards[graph.sinks[index].node]
        let token = ClosureToken()
        tracker.track(token, "sink \(index)'s closures")
        switch built {
        case .signal(let signal):
            sink.keep(
                signal.observe { [self] value in
                    withExtendedLifetime(token) { nodeGuard.enter(sink) { received(value, sink: index) } }
                })
            sink.keep(
                signal.observeCompleted {
                    withExtendedLifetime(token) { nodeGuard.enter(sink) { sink.record(.completed) } }
                })
        case .property(let property):
            sink.keep(
                property.observe { [self] value in
                    withExtendedLifetime(token) { nodeGuard.enter(sink) { received(value, sink: index) } }
                })
        }
    }

    private func received(_ value: Int, sink index: Int) {
        let sink = sinks[index]
        let (reacts, count) = sink.record(.value(value))
        if yieldsInDeliveries {
            if count % 3 == 0 { sched_yield() }
            let root = Values.tag(of: value) - 1
            if let owner = owners[root], let sender = threadIDs.withLock({ $0[owner] }),
                pthread_equal(sender, pthread_self()) == 0
            {
                deliveredByAnotherThread.add(1, ordering: .relaxed)
            }
        }
        guard reacts, reactionsEnabled, let reaction = graph.sinks[index].reaction,
            Values.payload(value) % 3 == reaction.remainder
        else { return }
        sink.spendBudget()
        switch reaction.act {
        case .send(let root, let value): send(root, value)
        case .dispose(let other): sinks[other].dispose()
        }
    }

    /// Lets go of the graph's nodes (the sinks keep what they observe), except, unless
    /// `all`, those that stop following their input when freed (`stopsWhenFreed`): the
    /// model does not free nodes.
    func releaseNodes(all: Bool = false) {
        built = built.indices.map { index in
            all || graph.nodes[index].operatorCase?.stopsWhenFreed != true ? nil : built[index]
        }
    }

    /// Disposes every sink and lets go of everything; then nothing tracked may be alive.
    func tearDown() {
        for sink in sinks { sink.dispose() }
        releaseNodes(all: true)
        inputs = [:]
        properties = [:]
    }
}
