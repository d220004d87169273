import Signals

// The operators the model check draws its graphs from: one `OperatorCase` per operator,
// each holding how to build it and how the reference model computes it. To check a new
// operator, add one case to `OperatorCase.classic`, or to `vocabulary`
// (ModelCheckVocabulary.swift) for the constructors and vocabulary operators (see "Adding
// an operator" in ModelCheckTests.swift).

/// What a node of a checked graph is: a `Signal<Int>` or a `Property<Int>`.
enum NodeKind: Sendable {
    case signal
    case property
}

/// A built node of a checked graph.
enum Built: Sendable {
    case signal(Signal<Int>)
    case property(Property<Int>)

    var signal: Signal<Int> {
        guard case .signal(let signal) = self else { fatalError("a property where a signal was expected") }
        return signal
    }

    var property: Property<Int> {
        guard case .property(let property) = self else { fatalError("a signal where a property was expected") }
        return property
    }

    /// The wrapper object, for the release checks.
    var object: AnyObject {
        switch self {
        case .signal(let signal): signal
        case .property(let property): property
        }
    }
}

/// An object captured by a node's closures (or an observer's), to prove they are freed.
final class ClosureToken: Sendable {}

/// What a case's `build` gets.
struct BuildContext {
    let inputs: [Built]
    let parameter: Int
    /// The pipe roots' signals, for operators that switch between signals (`flatMapLatest`).
    let pool: [Signal<Int>]
    /// The property roots, for operators that switch between properties
    /// (`Property.flatMapLatest`).
    let propertyPool: [Property<Int>]
    /// Captured by the operator's closures, if it has any.
    let token: ClosureToken
}

/// What a case's `model` gets when the reference model builds the node.
struct ModelSetup {
    let parameter: Int
    /// The model's node numbers of the inputs.
    let inputs: [Int]
    /// The prefix of each input signal (nil for none, and for properties).
    let inputPrefixes: [Int?]
    /// The value of each input property when the node is built (0 for signals).
    let inputValues: [Int]
    /// The model's node numbers of the pipe roots (see `BuildContext.pool`).
    let pool: [Int]
    /// The model's node numbers of the property roots (see `BuildContext.propertyPool`).
    let propertyPool: [Int]
    /// The value a property node has now (read when the model runs, not when it is built).
    let currentValue: (Int) -> Int
    /// Whether an input property is fed by a signal, or derives from one that is (see
    /// `OperatorCase.isFedBySignal`).
    var inputsFedBySignal = false
    /// Whether a combination settling now waits for the end of the propagation: inside a
    /// root's change when `fedBySignal`, as the core's `Propagation.shouldWait` decides.
    var shouldWait: (_ fedBySignal: Bool) -> Bool = { _ in false }

    /// For a case without inputs, to ask what it is before it is in a model.
    static var unused: ModelSetup {
        ModelSetup(
            parameter: 0, inputs: [], inputPrefixes: [], inputValues: [], pool: [], propertyPool: [],
            currentValue: { _ in 0 })
    }
}

/// What flows between the reference model's nodes: a signal's value or completion, or a
/// property's change steps (a change of a property is `invalidate`, then `value` or
/// `unchanged`, as in the core).
enum Wire: Equatable, CustomStringConvertible {
    case value(Int)
    case completed
    case invalidate
    case unchanged

    var description: String {
        switch self {
        case .value(let value): "\(value)"
        case .completed: "|"
        case .invalidate: "invalidate"
        case .unchanged: "unchanged"
        }
    }
}

/// What a model node does with one event: wires it sends, and subscriptions it makes or
/// drops (for operators that switch their sources, like `flatMapLatest`).
struct Effects {
    var wires: [Wire] = []
    /// Model nodes to subscribe to, with the port their events arrive on.
    var subscriptions: [(node: Int, port: Int)] = []
    /// Ports whose subscriptions to drop, before the new ones are made.
    var unsubscriptions: [Int] = []
    /// Events the node gets on one of its own ports after this step, queued behind it
    /// (an inner signal or a producer's run that sends at once when it is started).
    var later: [(wire: Wire, port: Int)] = []
    /// The node settled inside a propagation and waits for its end: it then gets
    /// `.unchanged` on `Effects.propagationEnded`.
    var waitsForPropagation = false

    /// The port on which a node that waited is told that the propagation has ended.
    static let propagationEnded = -1

    mutating func send(_ value: Int) { wires.append(.value(value)) }
    mutating func complete() { wires.append(.completed) }
}

/// A model node's behaviour: handles `wire` arriving on input `port` (its index in the
/// node's inputs, or a port it subscribed itself).
typealias ModelStep = (_ wire: Wire, _ port: Int, _ effects: inout Effects) -> Void

/// The reference model of one operator node.
struct ModelOperator {
    /// The prefix its observers get first (`prefix(value:)`, and the operators carrying one).
    var prefix: Int?
    /// Completed as soon as it is built (`take(first: 0)`).
    var completedWhenBuilt = false
    /// For a property: its value when built.
    var value = 0
    /// Gives each new observer the last this many values it delivered (`share(replay:)`).
    var replay = 0
    /// What it sends when it starts (at its first observer, or when built if it subscribes
    /// then), before it subscribes to its inputs: a start-once signal's values.
    var onStart: ((inout Effects) -> Void)?
    let step: ModelStep
}

/// One operator the model check can put in a graph.
struct OperatorCase {
    let name: String
    let inputs: [NodeKind]
    let output: NodeKind
    /// The operator's parameter is drawn from this range (ignored by some).
    var parameters: ClosedRange<Int> = 0...0
    /// The order in which the operator subscribes to its inputs, as indices into `inputs`
    /// (argument order unless given).
    var subscriptionOrder: [Int]?
    /// Subscribes when built (properties, `property.signal`), not at its first observer.
    var subscribesWhenBuilt = false
    /// Carries its input's prefix to its own observers instead of taking it as a value.
    var carriesPrefix = false
    /// Replays as many of its own values as its input replays (in-line operators after
    /// `share(replay:)`, contract V.8a).
    var carriesReplay = false
    /// Each value out comes from one value in, independent of the others, and nothing is
    /// held back or reordered: a sink fed only through such operators gets, from each
    /// root, what the model says, whatever the threads do (see the concurrent check).
    var isStateless = false
    /// Only one such node per input node (`property.signal` is made once per property).
    var oncePerInput = false
    /// Switches between the pool's signals: those are sources too.
    var usesPool = false
    /// Switches between the property pool's properties: those are sources too.
    var usesPropertyPool = false
    /// Stops following its input when the node itself is freed (`Property(initial:then:)`),
    /// so the concurrent check keeps it when it lets go of the other nodes.
    var stopsWhenFreed = false
    /// A property set by a subscription of its own (`Property(initial:then:)`,
    /// `flatMapLatest`): each change it makes is a root change, a propagation, and what
    /// combines it waits for the end of the root change that settles it.
    var isFedBySignal = false
    let build: (BuildContext) -> Built
    let model: (ModelSetup) -> ModelOperator

    /// Every operator of the check: `classic`, then `vocabulary`, then the single-input
    /// ones of those lifted onto producers (ModelCheckLifted.swift).
    static var all: [OperatorCase] { allCases }

    // Made once: a graph looks its cases up often. Safe to share: never changed, and the
    // model check's threads only build graphs from it.
    private nonisolated(unsafe) static let allCases = (classic + vocabulary) + liftedCases(of: classic + vocabulary)

    /// The operators the model check began with.
    static var classic: [OperatorCase] {
        [
            OperatorCase(
                name: "map", inputs: [.signal], output: .signal, parameters: 0...5, carriesPrefix: true,
                carriesReplay: true,
                isStateless: true,
                build: { context in
                    let (k, token) = (context.parameter, context.token)
                    return .signal(
                        context.inputs[0].signal.map { value in
                            withExtendedLifetime(token) { Values.map(value, k) }
                        })
                },
                model: { setup in
                    let k = setup.parameter
                    return ModelOperator(prefix: setup.inputPrefixes[0].map { Values.map($0, k) }) { wire, _, out in
                        switch wire {
                        case .value(let value): out.send(Values.map(value, k))
                        default: out.wires.append(wire)
                        }
                    }
                }),
            OperatorCase(
                name: "filter", inputs: [.signal], output: .signal, parameters: 0...2, carriesPrefix: true,
                carriesReplay: true,
                isStateless: true,
                build: { context in
                    let (k, token) = (context.parameter, context.token)
                    return .signal(
                        context.inputs[0].signal.filter { value in
                            withExtendedLifetime(token) { Values.keeps(value, k) }
                        })
                },
                model: { setup in
                    let k = setup.parameter
                    let prefix = setup.inputPrefixes[0].flatMap { Values.keeps($0, k) ? $0 : nil }
                    return ModelOperator(prefix: prefix) { wire, _, out in
                        switch wire {
                        case .value(let value): if Values.keeps(value, k) { out.send(value) }
                        default: out.wires.append(wire)
                        }
                    }
                }),
            OperatorCase(
                name: "compactMap", inputs: [.signal], output: .signal, parameters: 0...3, carriesPrefix: true,
                carriesReplay: true,
                isStateless: true,
                build: { context in
                    let (k, token) = (context.parameter, context.token)
                    return .signal(
                        context.inputs[0].signal.compactMap { value in
                            withExtendedLifetime(token) { Values.compactMap(value, k) }
                        })
                },
                model: { setup in
                    let k = setup.parameter
                    let prefix = setup.inputPrefixes[0].flatMap { Values.compactMap($0, k) }
                    return ModelOperator(prefix: prefix) { wire, _, out in
                        switch wire {
                        case .value(let value): if let mapped = Values.compactMap(value, k) { out.send(mapped) }
                        default: out.wires.append(wire)
                        }
                    }
                }),
            OperatorCase(
                name: "scan", inputs: [.signal], output: .signal, parameters: 0...3, carriesReplay: true,
                build: { context in
                    let token = context.token
                    return .signal(
                        context.inputs[0].signal.scan(context.parameter) { total, value in
                            withExtendedLifetime(token) { Values.scan(total, value) }
                        })
                },
                model: { setup in
                    var total = setup.parameter
                    return ModelOperator { wire, _, out in
                        switch wire {
                        case .value(let value):
                            total = Values.scan(total, value)
                            out.send(total)
                        default: out.wires.append(wire)
                        }
                    }
                }),
            OperatorCase(
                name: "skipRepeats", inputs: [.signal], output: .signal, carriesPrefix: true,
                build: { context in .signal(context.inputs[0].signal.skipRepeats()) },
                model: { setup in
                    var previous = setup.inputPrefixes[0]
                    return ModelOperator(prefix: setup.inputPrefixes[0]) { wire, _, out in
                        switch wire {
                        case .value(let value):
                            if value == previous { return }
                            previous = value
                            out.send(value)
                        default: out.wires.append(wire)
                        }
                    }
                }),
            OperatorCase(
                name: "take(first:)", inputs: [.signal], output: .signal, parameters: 0...4,
                build: { context in .signal(context.inputs[0].signal.take(first: context.parameter)) },
                model: { setup in
                    var remaining = setup.parameter
                    return ModelOperator(completedWhenBuilt: remaining == 0) { wire, _, out in
                        switch wire {
                        case .value(let value):
                            guard remaining > 0 else { return }
                            remaining -= 1
                            out.send(value)
                            if remaining == 0 { out.complete() }
                        default: out.wires.append(wire)
                        }
                    }
                }),
            OperatorCase(
                name: "skip(first:)", inputs: [.signal], output: .signal, parameters: 0...3,
                build: { context in .signal(context.inputs[0].signal.skip(first: context.parameter)) },
                model: { setup in
                    var toSkip = setup.parameter
                    return ModelOperator { wire, _, out in
                        switch wire {
                        case .value(let value):
                            if toSkip > 0 {
                                toSkip -= 1
                            } else {
                                out.send(value)
                            }
                        default: out.wires.append(wire)
                        }
                    }
                }),
            // `take(until:)` subscribes to its trigger first (it has to stop at once).
            OperatorCase(
                name: "take(until:)", inputs: [.signal, .signal], output: .signal, subscriptionOrder: [1, 0],
                build: { context in .signal(context.inputs[0].signal.take(until: context.inputs[1].signal)) },
                model: { _ in
                    ModelOperator { wire, port, out in
                        if port == 1 || wire == .completed {
                            out.complete()
                        } else {
                            out.wires.append(wire)
                        }
                    }
                }),
            OperatorCase(
                name: "prefix(value:)", inputs: [.signal], output: .signal, parameters: 0...7, isStateless: true,
                build: { context in .signal(context.inputs[0].signal.prefix(value: context.parameter)) },
                model: { setup in ModelOperator(prefix: setup.parameter) { wire, _, out in out.wires.append(wire) } }),
            OperatorCase(
                name: "merge", inputs: [.signal, .signal], output: .signal, isStateless: true,
                build: { context in .signal(Signal.merge(context.inputs[0].signal, context.inputs[1].signal)) },
                model: { _ in Self.mergeModel(inputs: 2) }),
            OperatorCase(
                name: "merge", inputs: [.signal, .signal, .signal], output: .signal, isStateless: true,
                build: { context in .signal(Signal.merge(context.inputs.map(\.signal))) },
                model: { _ in Self.mergeModel(inputs: 3) }),
            OperatorCase(
                name: "combineLatest+mix", inputs: [.signal, .signal], output: .signal,
                build: { context in
                    .signal(
                        Signal.combineLatest(context.inputs[0].signal, context.inputs[1].signal).map {
                            Values.mix($0, $1)
                        })
                },
                model: { _ in
                    var latest: [Int?] = [nil, nil]
                    var completions = 0
                    return ModelOperator { wire, port, out in
                        switch wire {
                        case .value(let value):
                            latest[port] = value
                            if let a = latest[0], let b = latest[1] { out.send(Values.mix(a, b)) }
                        default:
                            completions += 1
                            if completions == 2 { out.complete() }
                        }
                    }
                }),
            OperatorCase(
                name: "zip+mix", inputs: [.signal, .signal], output: .signal,
                build: { context in
                    .signal(Signal.zip(context.inputs[0].signal, context.inputs[1].signal).map { Values.mix($0, $1) })
                },
                model: { _ in
                    var queues: [[Int]] = [[], []]
                    var done = [false, false]
                    return ModelOperator { wire, port, out in
                        switch wire {
                        case .value(let value): queues[port].append(value)
                        default: done[port] = true
                        }
                        while !queues[0].isEmpty, !queues[1].isEmpty {
                            out.send(Values.mix(queues[0].removeFirst(), queues[1].removeFirst()))
                        }
                        if (done[0] && queues[0].isEmpty) || (done[1] && queues[1].isEmpty) { out.complete() }
                    }
                }),
            // `withLatest(from:)` subscribes to the sampled signal first.
            OperatorCase(
                name: "withLatest(from:)+mix", inputs: [.signal, .signal], output: .signal, subscriptionOrder: [1, 0],
                build: { context in
                    .signal(
                        context.inputs[0].signal.withLatest(from: context.inputs[1].signal).map { Values.mix($0, $1) })
                },
                model: { _ in
                    var latest: Int?
                    return ModelOperator { wire, port, out in
                        switch (wire, port) {
                        case (.value(let value), 0): if let latest { out.send(Values.mix(value, latest)) }
                        case (.value(let value), _): latest = value
                        case (_, 0): out.complete()
                        default: break
                        }
                    }
                }),
            // Switches to the pipe root the value names; the inner subscription's port is
            // 100 + its generation.
            OperatorCase(
                name: "flatMapLatest", inputs: [.signal], output: .signal, usesPool: true,
                build: { context in
                    let (pool, token) = (context.pool, context.token)
                    return .signal(
                        context.inputs[0].signal.flatMapLatest { value in
                            withExtendedLifetime(token) { pool[Values.payload(value) % pool.count] }
                        })
                },
                model: { setup in
                    let pool = setup.pool
                    var generation = 0
                    var outerDone = false
                    var innerDone = true
                    return ModelOperator { wire, port, out in
                        switch (wire, port) {
                        case (.value(let value), 0):
                            if generation > 0 { out.unsubscriptions.append(100 + generation) }
                            generation += 1
                            innerDone = false
                            out.subscriptions.append((pool[Values.payload(value) % pool.count], 100 + generation))
                        case (_, 0):
                            outerDone = true
                        case (.value(let value), _):
                            if port == 100 + generation { out.send(value) }
                            return
                        default:
                            if port == 100 + generation { innerDone = true }
                        }
                        if outerDone && innerDone { out.complete() }
                    }
                }),
            OperatorCase(
                name: "Property.map", inputs: [.property], output: .property, parameters: 0...5,
                subscribesWhenBuilt: true,
                build: { context in
                    let (k, token) = (context.parameter, context.token)
                    return .property(
                        context.inputs[0].property.map { value in
                            withExtendedLifetime(token) { Values.map(value, k) }
                        })
                },
                model: { setup in
                    let k = setup.parameter
                    return Self.changesOnlyModel(value: Values.map(setup.inputValues[0], k)) { Values.map($0, k) }
                }),
            OperatorCase(
                name: "Property.skipRepeats", inputs: [.property], output: .property, subscribesWhenBuilt: true,
                build: { context in .property(context.inputs[0].property.skipRepeats()) },
                model: { setup in Self.changesOnlyModel(value: setup.inputValues[0]) { $0 } }),
            OperatorCase(
                name: "Property.combineLatest+mix", inputs: [.property, .property], output: .property,
                subscribesWhenBuilt: true,
                build: { context in
                    .property(
                        Property.combineLatest(context.inputs[0].property, context.inputs[1].property).map {
                            Values.mix($0, $1)
                        })
                },
                model: { setup in Self.propertyCombineModel(setup) }),
            // A map of a pair that is not a `combineLatest` (a map of one) is a map after the
            // pair, not one combination (contract 1.9a): the same model, the other path.
            OperatorCase(
                name: "Property.combineLatest+pair+mix", inputs: [.property, .property], output: .property,
                subscribesWhenBuilt: true,
                build: { context in
                    .property(
                        Property.combineLatest(context.inputs[0].property, context.inputs[1].property).map { $0 }
                            .map { Values.mix($0, $1) })
                },
                model: { setup in Self.propertyCombineModel(setup) }),
            OperatorCase(
                name: "Property.signal", inputs: [.property], output: .signal, subscribesWhenBuilt: true,
                oncePerInput: true,
                build: { context in .signal(context.inputs[0].property.signal) },
                model: { _ in
                    ModelOperator { wire, _, out in
                        switch wire {
                        case .value, .completed: out.wires.append(wire)
                        case .invalidate, .unchanged: break
                        }
                    }
                }),
        ]
    }

    static func mergeModel(inputs: Int) -> ModelOperator {
        var remaining = inputs
        return ModelOperator { wire, _, out in
            switch wire {
            case .value: out.wires.append(wire)
            default:
                remaining -= 1
                if remaining == 0 { out.complete() }
            }
        }
    }

    /// A derived property of `Equatable` values: passes the change steps on and notifies
    /// only a value that differs from the last one it notified.
    static func changesOnlyModel(value: Int, _ transform: @escaping (Int) -> Int) -> ModelOperator {
        var last = value
        return ModelOperator(value: value) { wire, _, out in
            switch wire {
            case .value(let value):
                let mapped = transform(value)
                if mapped == last {
                    out.wires.append(.unchanged)
                } else {
                    last = mapped
                    out.send(mapped)
                }
            default: out.wires.append(wire)
            }
        }
    }

    /// `Property.combineLatest(a, b).map(mix)`: counts invalidated inputs and emits once
    /// when the last one settles, only when the pair (and then the mix) changed.
    static func propertyCombineModel(
        _ setup: ModelSetup, combine: @escaping ([Int]) -> Int = { Values.mix($0[0], $0[1]) }
    ) -> ModelOperator {
        let values = setup.inputValues
        var latest = values
        var emitted = values
        var lastMix = combine(values)
        var unsettled = 0
        var isChanged = false
        var completions = 0
        // Settled inside a propagation, waiting for its end (section 1, "Batches").
        var isWaiting = false
        return ModelOperator(value: lastMix) { wire, port, out in
            if port == Effects.propagationEnded {
                isWaiting = false
                guard unsettled == 0 else { return }
            } else {
                switch wire {
                case .invalidate:
                    unsettled += 1
                    if unsettled == 1 && !isWaiting { out.wires.append(.invalidate) }
                    return
                case .value(let value):
                    latest[port] = value
                    isChanged = true
                case .unchanged:
                    break
                case .completed:
                    completions += 1
                    if completions == values.count { out.complete() }
                    return
                }
                if unsettled == 0 {
                    if !isWaiting { out.wires.append(.invalidate) }
                } else {
                    unsettled -= 1
                    guard unsettled == 0 else { return }
                }
                if isWaiting { return }
                if setup.shouldWait(setup.inputsFedBySignal) {
                    isWaiting = true
                    out.waitsForPropagation = true
                    return
                }
            }
            if isChanged {
                isChanged = latest != emitted
                if isChanged { emitted = latest }
            }
            defer { isChanged = false }
            guard isChanged else {
                out.wires.append(.unchanged)
                return
            }
            let mix = combine(latest)
            if mix == lastMix {
                out.wires.append(.unchanged)
            } else {
                lastMix = mix
                out.send(mix)
            }
        }
    }
}

/// The functions the operators apply. A root's value is a small payload (0..<8) with the
/// root's tag above it (`tag(root:)`), so the concurrent check can tell where a value
/// came from; the single-input functions keep the tag, the combining ones drop it.
enum Values {
    static let payloadBits = 16

    static func tag(root: Int) -> Int { (root + 1) << payloadBits }
    static func tag(of value: Int) -> Int { value >> payloadBits }
    static func payload(_ value: Int) -> Int { value & ((1 << payloadBits) - 1) }
    static func keepingTag(_ value: Int, _ payload: Int) -> Int { (tag(of: value) << payloadBits) | payload }

    static func map(_ value: Int, _ k: Int) -> Int { keepingTag(value, (payload(value) * (k + 2) + k) % 16) }
    static func keeps(_ value: Int, _ k: Int) -> Bool { (payload(value) + k) % 3 != 0 }
    static func compactMap(_ value: Int, _ k: Int) -> Int? {
        payload(value) % 4 == k ? nil : keepingTag(value, (payload(value) + k + 1) % 16)
    }
    static func scan(_ total: Int, _ value: Int) -> Int {
        keepingTag(value, (payload(total) + payload(value) + 1) % 16)
    }
    static func mix(_ a: Int, _ b: Int) -> Int { (payload(a) * 7 + payload(b)) % 16 }
    /// `mix` over a list, from a seed (so the empty list has a value too).
    static func mixAll(_ values: [Int]) -> Int { values.reduce(5) { mix($0, $1) } }
    /// `take(while:)`'s predicate: fails about one value in five.
    static func holds(_ value: Int, _ k: Int) -> Bool { (payload(value) + k) % 5 != 0 }
}
