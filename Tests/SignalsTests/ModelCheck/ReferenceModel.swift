/// What a sink records: a value, or the completion.
enum SinkEvent: Equatable, Sendable, CustomStringConvertible {
    case value(Int)
    case completed

    var description: String {
        switch self {
        case .value(let value): "\(value)"
        case .completed: "|"
        }
    }
}

/// A sequential reference model of the contract: what every sink of a graph gets when a
/// script runs on one thread.
///
/// It is written from the contract's rules, with none of the core's machinery (no locks,
/// snapshots of storage, shared deliveries or pair elision):
/// - a value is delivered to the observers registered when it was sent, in registration
///   order, skipping any disposed before its turn (4.1, 4.2);
/// - one signal delivers one thing at a time: something sent to a signal while it
///   delivers waits in its FIFO queue, and runs when the delivery in progress is over (2.1);
/// - an operator starts at its first observer, after registering it, and subscribes to
///   its inputs in order (4.10, 4.10a); properties subscribe when built;
/// - an operator's own state changes in the order its events arrive;
/// - a completion sets the signal terminating at once (later sends are dropped) and
///   reaches every observer registered when it is delivered; an observer arriving after
///   gets the prefix, if any, and the completion at once (4.3);
/// - a property's change is `invalidate` then its value (or `unchanged`), so a property
///   over several inputs emits once per change (section 1);
/// - a start-once signal sends to its first observer, inside its `observe` (V.1); what an
///   operator's inner sends at once is delivered right after the step that started it
///   (7.7); a replaying node hands a new observer its kept values in delivery order, and
///   after its completion the kept values then the completion (V.8).
final class ReferenceModel {
    enum Target {
        case node(Int, port: Int)
        case sinkValues(Int)
        case sinkCompletion(Int)
    }

    final class Subscription {
        let target: Target
        var disposed = false

        init(_ target: Target) {
            self.target = target
        }
    }

    final class Node {
        let isProperty: Bool
        let subscribesWhenBuilt: Bool
        let inputs: [Int]
        let order: [Int]
        let carriesPrefix: Bool
        let step: ModelStep?
        /// Set by a subscription of its own: each change it sends is a root change.
        var isFedBySignal = false
        /// A property fed by a signal, or derived from one (what combines it waits).
        var derivesFromSignal = false
        var onStart: ((inout Effects) -> Void)?
        var prefix: Int?
        /// How many values it replays to a new observer, and the ones it keeps.
        var replayLimit = 0
        var replayed: [Int] = []
        var value = 0
        var started = false
        var terminating = false
        var finished = false
        var delivering = false
        var pending: [() -> Void] = []
        var subscriptions: [Subscription] = []

        init(
            isProperty: Bool, subscribesWhenBuilt: Bool, inputs: [Int], order: [Int], carriesPrefix: Bool,
            step: ModelStep?
        ) {
            self.isProperty = isProperty
            self.subscribesWhenBuilt = subscribesWhenBuilt
            self.inputs = inputs
            self.order = order
            self.carriesPrefix = carriesPrefix
            self.step = step
        }
    }

    let graph: Graph
    private(set) var nodes: [Node] = []
    private(set) var logs: [[SinkEvent]]
    private var sinkSubscriptions: [[(node: Int, subscription: Subscription)]]
    private var sinkDisposed: [Bool]
    private var budgets: [Int]
    /// Reactions run only for what a script step's send causes (not for a sink's first
    /// value, delivered while it is being added).
    var reactionsEnabled = false
    /// How many reactions ran.
    private(set) var reactionsRun = 0
    /// How deep this thread is in root changes (the core's `Propagation`), and the nodes
    /// waiting for the outermost one to end, in the order they began to wait.
    private var propagationDepth = 0
    private var waitingForPropagation: [Int] = []
    /// How many batches are open.
    private var batches = 0

    init(graph: Graph) {
        self.graph = graph
        logs = Array(repeating: [], count: graph.sinks.count)
        sinkSubscriptions = Array(repeating: [], count: graph.sinks.count)
        sinkDisposed = Array(repeating: false, count: graph.sinks.count)
        budgets = graph.sinks.map { $0.reaction?.budget ?? 0 }
        let pool = graph.pipes
        let propertyPool = graph.propertyRoots
        for graphNode in graph.nodes {
            switch graphNode.root {
            case .pipe:
                nodes.append(
                    Node(
                        isProperty: false, subscribesWhenBuilt: false, inputs: [], order: [], carriesPrefix: false,
                        step: nil))
            case .property(let initial):
                let node = Node(
                    isProperty: true, subscribesWhenBuilt: false, inputs: [], order: [], carriesPrefix: false,
                    step: nil)
                node.value = initial
                nodes.append(node)
            case nil:
                let operatorCase = graphNode.operatorCase!
                let inputsFedBySignal = graphNode.inputs.contains { nodes[$0].derivesFromSignal }
                var setup = ModelSetup(
                    parameter: graphNode.parameter, inputs: graphNode.inputs,
                    inputPrefixes: graphNode.inputs.map { nodes[$0].isProperty ? nil : nodes[$0].prefix },
                    inputValues: graphNode.inputs.map { nodes[$0].isProperty ? nodes[$0].value : 0 },
                    pool: pool, propertyPool: propertyPool,
                    currentValue: { [unowned self] in self.nodes[$0].value })
                setup.inputsFedBySignal = inputsFedBySignal
                setup.shouldWait = { [unowned self] fedBySignal in
                    self.propagationDepth > 0 && (fedBySignal || self.batches > 0)
                }
                let model = operatorCase.model(setup)
                let node = Node(
                    isProperty: operatorCase.output == .property,
                    subscribesWhenBuilt: operatorCase.subscribesWhenBuilt, inputs: graphNode.inputs,
                    order: operatorCase.subscriptionOrder ?? Array(graphNode.inputs.indices),
                    carriesPrefix: operatorCase.carriesPrefix, step: model.step)
                node.isFedBySignal = operatorCase.isFedBySignal
                node.derivesFromSignal =
                    node.isProperty && (operatorCase.isFedBySignal || inputsFedBySignal)
                node.prefix = model.prefix
                node.value = model.value
                // An in-line operator after a replaying signal replays too (V.8a).
                node.replayLimit =
                    operatorCase.carriesReplay
                    ? max(model.replay, nodes[graphNode.inputs[0]].replayLimit) : model.replay
                node.onStart = model.onStart
                let index = nodes.count
                nodes.append(node)
                if model.completedWhenBuilt {
                    node.terminating = true
                    node.finished = true
                } else if operatorCase.subscribesWhenBuilt {
                    start(index)
                }
            }
        }
    }

    // MARK: - Script steps

    func run(_ step: Step) {
        switch step {
        case .send(let root, let value): send(root, value)
        case .complete(let root): complete(root)
        case .dispose(let sink): dispose(sink: sink)
        case .observe(let sink): observe(sink: sink)
        case .batch(let steps): batch { steps.forEach(run) }
        }
    }

    /// `withBatchedChanges`: one propagation in which every combination waits (1.14). The
    /// batch is closed before the propagation ends, as in the core, so what the waiting
    /// combinations cause at the end waits only by the rule of root changes.
    func batch(_ body: () -> Void) {
        batches += 1
        asRootChange {
            body()
            batches -= 1
        }
    }

    /// Adds sink `sink`'s observers (a disposed sink is not added again).
    func observe(sink: Int) {
        guard !sinkDisposed[sink], sinkSubscriptions[sink].isEmpty else { return }
        let nodeIndex = graph.sinks[sink].node
        let node = nodes[nodeIndex]
        if node.isProperty {
            // The current value first, on the calling thread, then the changes.
            record(.value(node.value), sink: sink)
            let subscription = Subscription(.sinkValues(sink))
            sinkSubscriptions[sink].append((nodeIndex, subscription))
            node.subscriptions.append(subscription)
        } else {
            for target in [Target.sinkValues(sink), .sinkCompletion(sink)] {
                let subscription = Subscription(target)
                sinkSubscriptions[sink].append((nodeIndex, subscription))
                subscribe(nodeIndex, subscription, skippingPrefix: false)
            }
        }
    }

    func dispose(sink: Int) {
        sinkDisposed[sink] = true
        for (node, subscription) in sinkSubscriptions[sink] { unsubscribe(subscription, from: node) }
    }

    func send(_ root: Int, _ value: Int) {
        let node = nodes[root]
        guard !node.terminating else { return }
        let snapshot = node.subscriptions
        if node.isProperty {
            node.value = value
            asRootChange {
                inDelivery(of: node) {
                    self.emit(.invalidate, from: node, to: snapshot)
                    self.emit(.value(value), from: node, to: snapshot)
                }
            }
        } else {
            inDelivery(of: node) { self.emit(.value(value), from: node, to: snapshot) }
        }
    }

    func complete(_ root: Int) {
        let node = nodes[root]
        guard !node.terminating else { return }
        node.terminating = true
        inDelivery(of: node) { self.emitCompletion(node) }
    }

    // MARK: - Delivery

    /// Runs `change`, a root property's change, as a propagation: a combination that
    /// settles inside and waits is told, in order, once the outermost one ends; what it
    /// then causes is still inside, so what waits meanwhile is told after it.
    private func asRootChange(_ change: () -> Void) {
        propagationDepth += 1
        change()
        if propagationDepth == 1 {
            var next = 0
            while next < waitingForPropagation.count {
                let index = waitingForPropagation[next]
                next += 1
                receive(.unchanged, at: index, port: Effects.propagationEnded)
            }
            waitingForPropagation = []
        }
        propagationDepth -= 1
    }

    private func subscribe(_ index: Int, _ subscription: Subscription, skippingPrefix: Bool) {
        let node = nodes[index]
        let prefix = skippingPrefix ? nil : node.prefix
        if node.terminating {
            if let prefix { deliver(.value(prefix), to: subscription) }
            // A replaying node hands out its kept values, then the completion (V.8).
            for value in node.replayed { deliver(.value(value), to: subscription) }
            deliver(.completed, to: subscription)
            subscription.disposed = true
            return
        }
        node.subscriptions.append(subscription)
        if let prefix { inDelivery(of: node) { self.deliver(.value(prefix), to: subscription) } }
        // The kept values, in delivery order: after the delivery in progress (V.8).
        if node.replayLimit > 0, !node.replayed.isEmpty {
            inDelivery(of: node) {
                for value in node.replayed { self.deliver(.value(value), to: subscription) }
            }
        }
        if !node.subscribesWhenBuilt { start(index) }
    }

    private func start(_ index: Int) {
        let node = nodes[index]
        guard !node.started else { return }
        node.started = true
        if let onStart = node.onStart {
            let snapshot = node.subscriptions
            inDelivery(of: node) {
                var effects = Effects()
                onStart(&effects)
                self.apply(effects, of: index, to: snapshot)
            }
        }
        for port in node.order {
            subscribe(node.inputs[port], Subscription(.node(index, port: port)), skippingPrefix: node.carriesPrefix)
        }
    }

    private func unsubscribe(_ subscription: Subscription, from index: Int) {
        subscription.disposed = true
        nodes[index].subscriptions.removeAll { $0 === subscription }
    }

    /// Runs `work` as a delivery of `node`, or queues it behind the delivery in progress.
    private func inDelivery(of node: Node, _ work: @escaping () -> Void) {
        if node.delivering {
            node.pending.append(work)
            return
        }
        node.delivering = true
        work()
        while !node.pending.isEmpty { node.pending.removeFirst()() }
        node.delivering = false
    }

    private func emit(_ wire: Wire, from node: Node, to snapshot: [Subscription]) {
        guard !node.finished else { return }
        for subscription in snapshot { deliver(wire, to: subscription) }
    }

    /// Completes every observer registered now (also those added after the completion was
    /// sent), once.
    private func emitCompletion(_ node: Node) {
        guard !node.finished else { return }
        node.finished = true
        node.terminating = true
        let registered = node.subscriptions
        node.subscriptions = []
        for subscription in registered where !subscription.disposed {
            subscription.disposed = true
            handle(.completed, subscription.target)
        }
    }

    private func deliver(_ wire: Wire, to subscription: Subscription) {
        guard !subscription.disposed else { return }
        handle(wire, subscription.target)
    }

    private func handle(_ wire: Wire, _ target: Target) {
        switch (target, wire) {
        case (.node(let index, let port), _): receive(wire, at: index, port: port)
        case (.sinkValues(let sink), .value(let value)): record(.value(value), sink: sink)
        case (.sinkCompletion(let sink), .completed): record(.completed, sink: sink)
        default: break
        }
    }

    private func receive(_ wire: Wire, at index: Int, port: Int) {
        let node = nodes[index]
        guard !node.terminating else { return }
        // A signal-fed property's change is a root change of its own.
        if node.isFedBySignal {
            asRootChange { receiveNow(wire, at: index, port: port) }
        } else {
            receiveNow(wire, at: index, port: port)
        }
    }

    private func receiveNow(_ wire: Wire, at index: Int, port: Int) {
        let node = nodes[index]
        let snapshot = node.subscriptions
        inDelivery(of: node) {
            var effects = Effects()
            node.step!(wire, port, &effects)
            if effects.waitsForPropagation { self.waitingForPropagation.append(index) }
            self.apply(effects, of: index, to: snapshot)
        }
    }

    private func apply(_ effects: Effects, of index: Int, to snapshot: [Subscription]) {
        let node = nodes[index]
        for port in effects.unsubscriptions {
            for (source, sourceNode) in nodes.enumerated() {
                for subscription in sourceNode.subscriptions {
                    if case .node(index, port) = subscription.target { unsubscribe(subscription, from: source) }
                }
            }
        }
        for (source, port) in effects.subscriptions {
            subscribe(source, Subscription(.node(index, port: port)), skippingPrefix: false)
        }
        for wire in effects.wires {
            switch wire {
            case .completed:
                node.terminating = true
                emitCompletion(node)
            case .value(let value):
                if node.isProperty { node.value = value }
                if node.replayLimit > 0, !node.finished {
                    node.replayed.append(value)
                    if node.replayed.count > node.replayLimit { node.replayed.removeFirst() }
                }
                emit(wire, from: node, to: snapshot)
            case .invalidate, .unchanged:
                emit(wire, from: node, to: snapshot)
            }
        }
        // Queued behind this step: the node is delivering it.
        for (wire, port) in effects.later { receive(wire, at: index, port: port) }
    }

    private func record(_ event: SinkEvent, sink: Int) {
        logs[sink].append(event)
        guard reactionsEnabled, case .value(let value) = event, let reaction = graph.sinks[sink].reaction,
            budgets[sink] > 0, Values.payload(value) % 3 == reaction.remainder
        else { return }
        budgets[sink] -= 1
        reactionsRun += 1
        switch reaction.act {
        case .send(let root, let value): send(root, value)
        case .dispose(let sink): dispose(sink: sink)
        }
    }
}
