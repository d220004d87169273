import Signals

// The constructors and vocabulary operators in the model check: `flatMap` with each
// strategy (7.7), the start-once constructors (V.1), side effects (V.3), sampling (V.4),
// shorthands (V.5), conditions (V.6), replay (V.8), lists (V.9), and the properties made
// from signals ("Edge rules"). Each model is written from its contract line; where the
// contract does not say, the comment on the case says what the model takes (and checks).

/// A failure for the producers that `flatMap` runs.
struct ModelCheckFailure: Error {}

/// What a `flatMap` case's inner is, for the model: one of the pool's pipes, or a start-once
/// signal (or a producer's run) that sends these events when it starts.
enum ModelInner {
    case node(Int)
    case events([Wire])
}

/// A `FlattenStrategy` as the model runs it (7.7).
enum ModelStrategy {
    case merge(limit: Int)
    case latest
    case first

    var real: FlattenStrategy {
        switch self {
        case .merge(let limit): limit == .max ? .merge : limit == 1 ? .concat : .merge(limit: limit)
        case .latest: .latest
        case .first: .first
        }
    }
}

extension OperatorCase {
    static var vocabulary: [OperatorCase] {
        flatMapCases + constructorCases + signalVocabularyCases + listCases + propertyVocabularyCases
    }

    // MARK: - flatMap (7.7)

    /// The inner of a pool `flatMap` for `value`: a pipe of the pool, `Signal(value:)`,
    /// `Signal(values:)` of two values, or `.empty` (inner port 100 + the inner's number).
    static func poolInnerIndex(_ value: Int, poolCount: Int) -> Int { Values.payload(value) % (poolCount + 3) }

    static var flatMapCases: [OperatorCase] {
        let strategies: [(String, ModelStrategy)] = [
            ("flatMap(.merge)", .merge(limit: .max)), ("flatMap(.merge(limit: 2))", .merge(limit: 2)),
            ("flatMap(.concat)", .merge(limit: 1)), ("flatMap(.first)", .first),
        ]
        var cases = strategies.map { name, strategy in
            OperatorCase(
                name: name, inputs: [.signal], output: .signal, usesPool: true,
                build: { context in
                    let (pool, token) = (context.pool, context.token)
                    return .signal(
                        context.inputs[0].signal.flatMap(strategy.real) { value in
                            withExtendedLifetime(token) {
                                let index = poolInnerIndex(value, poolCount: pool.count)
                                switch index - pool.count {
                                case ..<0: return pool[index]
                                case 0: return Signal(value: Values.map(value, 1))
                                case 1: return Signal(values: [Values.map(value, 1), Values.map(value, 2)])
                                default: return .empty
                                }
                            }
                        })
                },
                model: { setup in
                    let pool = setup.pool
                    return flatMapModel(strategy) { value in
                        let index = poolInnerIndex(value, poolCount: pool.count)
                        switch index - pool.count {
                        case ..<0: return .node(pool[index])
                        case 0: return .events([.value(Values.map(value, 1)), .completed])
                        case 1:
                            return .events([.value(Values.map(value, 1)), .value(Values.map(value, 2)), .completed])
                        default: return .events([.completed])
                        }
                    }
                })
        }
        // Producers: each start is a new run, which sends at once (a value, or a failure
        // that `successes()` drops) and ends. The parameter picks the strategy.
        let producerStrategies: [ModelStrategy] = [.merge(limit: .max), .merge(limit: 1), .first, .latest]
        cases.append(
            OperatorCase(
                name: "flatMap(Producer)+successes", inputs: [.signal], output: .signal, parameters: 0...3,
                build: { context in
                    let token = context.token
                    return .signal(
                        context.inputs[0].signal.flatMap(producerStrategies[context.parameter].real) {
                            value -> Producer<Int, ModelCheckFailure> in
                            withExtendedLifetime(token) {
                                Values.payload(value) % 3 == 0
                                    ? Producer(failure: ModelCheckFailure()) : Producer(value: Values.map(value, 3))
                            }
                        }
                        .successes())
                },
                model: { setup in
                    flatMapModel(producerStrategies[setup.parameter]) { value in
                        Values.payload(value) % 3 == 0
                            ? .events([.completed]) : .events([.value(Values.map(value, 3)), .completed])
                    }
                }))
        return cases
    }

    /// `flatMap(strategy, inner)` as 7.7 says: `.merge(limit:)` runs at most `limit` inners,
    /// later values waiting in order; `.first` drops values while one runs; `.latest`
    /// leaves the running one for a new value. An inner that sends at once when started is
    /// delivered right after the step that started it. Completes when the outer has
    /// completed and nothing runs or waits.
    static func flatMapModel(_ strategy: ModelStrategy, inner: @escaping (Int) -> ModelInner) -> ModelOperator {
        var nextID = 0
        var running = Set<Int>()
        var waiting: [Int] = []
        var outerDone = false
        func start(_ value: Int, _ out: inout Effects) {
            nextID += 1
            running.insert(nextID)
            switch inner(value) {
            case .node(let node): out.subscriptions.append((node, 100 + nextID))
            case .events(let wires): out.later += wires.map { ($0, 100 + nextID) }
            }
        }
        return ModelOperator { wire, port, out in
            switch (wire, port) {
            case (.value(let value), 0):
                switch strategy {
                case .merge(let limit):
                    if running.count < limit { start(value, &out) } else { waiting.append(value) }
                case .first:
                    if running.isEmpty { start(value, &out) }
                case .latest:
                    out.unsubscriptions += running.map { 100 + $0 }
                    running.removeAll()
                    start(value, &out)
                }
            case (_, 0):
                outerDone = true
            case (.value(let value), _):
                if running.contains(port - 100) { out.send(value) }
            default:
                guard running.remove(port - 100) != nil else { return }
                if !waiting.isEmpty { start(waiting.removeFirst(), &out) }
            }
            if outerDone && running.isEmpty && waiting.isEmpty { out.complete() }
        }
    }

    // MARK: - Constructors (V.1, V.9's empty lists)

    /// A start-once signal with no input: sends `wires` to its first observer, inside its
    /// `observe`; a later observer gets the completion only.
    static func startOnce(_ wires: [Wire]) -> ModelOperator {
        ModelOperator(onStart: { out in out.wires += wires }) { _, _, _ in }
    }

    static var constructorCases: [OperatorCase] {
        [
            OperatorCase(
                name: "Signal(value:)", inputs: [], output: .signal, parameters: 0...7,
                build: { context in .signal(Signal(value: context.parameter)) },
                model: { setup in startOnce([.value(setup.parameter), .completed]) }),
            OperatorCase(
                name: "Signal(values:)", inputs: [], output: .signal, parameters: 0...3,
                build: { context in
                    .signal(Signal(values: (0..<context.parameter).map { (context.parameter + $0 * 3) % 8 }))
                },
                model: { setup in
                    startOnce((0..<setup.parameter).map { .value((setup.parameter + $0 * 3) % 8) } + [.completed])
                }),
            OperatorCase(
                name: "Signal.empty", inputs: [], output: .signal,
                build: { _ in .signal(.empty) },
                model: { _ in ModelOperator(completedWhenBuilt: true) { _, _, _ in } }),
            OperatorCase(
                name: "Signal.combineLatest([])", inputs: [], output: .signal,
                build: { _ in .signal(Signal<Int>.combineLatest([]).map { Values.mixAll($0) }) },
                model: { _ in startOnce([.value(Values.mixAll([])), .completed]) }),
            OperatorCase(
                name: "Signal.zip([])", inputs: [], output: .signal,
                build: { _ in .signal(Signal<Int>.zip([]).map { Values.mixAll($0) }) },
                model: { _ in startOnce([.value(Values.mixAll([])), .completed]) }),
        ]
    }

    // MARK: - Signal vocabulary (V.3 to V.8)

    static var signalVocabularyCases: [OperatorCase] {
        [
            // `trigger.withLatest(from: self)` (V.4). The contract does not say which input
            // `withLatest(from:)` subscribes to first (4.10a says argument order); the model
            // takes the sampled signal (this one) first, as the tuple case does.
            OperatorCase(
                name: "sample(on:)", inputs: [.signal, .signal], output: .signal,
                build: { context in .signal(context.inputs[0].signal.sample(on: context.inputs[1].signal)) },
                model: { _ in
                    var latest: Int?
                    return ModelOperator { wire, port, out in
                        switch (wire, port) {
                        case (.value(let value), 0): latest = value
                        case (.value, _): if let latest { out.send(latest) }
                        case (_, 1): out.complete()
                        default: break
                        }
                    }
                }),
            OperatorCase(
                name: "withLatest(from:_:)", inputs: [.signal, .signal], output: .signal, subscriptionOrder: [1, 0],
                build: { context in
                    let token = context.token
                    return .signal(
                        context.inputs[0].signal.withLatest(from: context.inputs[1].signal) { value, sampled in
                            withExtendedLifetime(token) { Values.mix(value, sampled) }
                        })
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
            OperatorCase(
                name: "combinePrevious", inputs: [.signal], output: .signal,
                build: { context in
                    .signal(context.inputs[0].signal.combinePrevious().map { Values.mix($0.previous, $0.current) })
                },
                model: { _ in
                    var previous: Int?
                    return ModelOperator { wire, _, out in
                        guard case .value(let value) = wire else { return out.wires.append(wire) }
                        if let previous { out.send(Values.mix(previous, value)) }
                        previous = value
                    }
                }),
            OperatorCase(
                name: "take(while:)", inputs: [.signal], output: .signal, parameters: 0...4,
                build: { context in
                    let (k, token) = (context.parameter, context.token)
                    return .signal(
                        context.inputs[0].signal.take(while: { value in
                            withExtendedLifetime(token) { Values.holds(value, k) }
                        }))
                },
                model: { setup in
                    let k = setup.parameter
                    return ModelOperator { wire, _, out in
                        guard case .value(let value) = wire else { return out.wires.append(wire) }
                        if Values.holds(value, k) { out.send(value) } else { out.complete() }
                    }
                }),
            OperatorCase(
                name: "skip(while:)", inputs: [.signal], output: .signal, parameters: 0...2,
                build: { context in
                    let (k, token) = (context.parameter, context.token)
                    return .signal(
                        context.inputs[0].signal.skip(while: { value in
                            withExtendedLifetime(token) { Values.keeps(value, k) }
                        }))
                },
                model: { setup in
                    let k = setup.parameter
                    var skipping = true
                    return ModelOperator { wire, _, out in
                        guard case .value(let value) = wire else { return out.wires.append(wire) }
                        if skipping && Values.keeps(value, k) { return }
                        skipping = false
                        out.send(value)
                    }
                }),
            // Observes the trigger first (V.6).
            OperatorCase(
                name: "skip(until:)", inputs: [.signal, .signal], output: .signal, subscriptionOrder: [1, 0],
                build: { context in .signal(context.inputs[0].signal.skip(until: context.inputs[1].signal)) },
                model: { _ in
                    var open = false
                    return ModelOperator { wire, port, out in
                        switch (wire, port) {
                        case (_, 1): open = true
                        case (.value(let value), _): if open { out.send(value) }
                        default: out.complete()
                        }
                    }
                }),
            OperatorCase(
                name: "share(replay:)", inputs: [.signal], output: .signal, parameters: 1...2,
                build: { context in .signal(context.inputs[0].signal.share(replay: context.parameter)) },
                model: { setup in ModelOperator(replay: setup.parameter) { wire, _, out in out.wires.append(wire) } }),
            OperatorCase(
                name: "on(value:)", inputs: [.signal], output: .signal, isStateless: true,
                build: { context in
                    let token = context.token
                    return .signal(context.inputs[0].signal.on(value: { _ in withExtendedLifetime(token) {} }))
                },
                model: { _ in ModelOperator { wire, _, out in out.wires.append(wire) } }),
            // The contract's prefix rule ("Edge rules") names `map` and `compactMap` only, so
            // read literally these two would take a prefix as their first value; they are
            // `map` and `compactMap` (V.5), and carry it as those do.
            OperatorCase(
                name: "map(value:)", inputs: [.signal], output: .signal, parameters: 0...7, carriesPrefix: true,
                carriesReplay: true,
                build: { context in .signal(context.inputs[0].signal.map(value: context.parameter)) },
                model: { setup in
                    ModelOperator(prefix: setup.inputPrefixes[0].map { _ in setup.parameter }) { wire, _, out in
                        guard case .value = wire else { return out.wires.append(wire) }
                        out.send(setup.parameter)
                    }
                }),
            OperatorCase(
                name: "map+skipNil", inputs: [.signal], output: .signal, parameters: 0...3, carriesPrefix: true,
                carriesReplay: true, isStateless: true,
                build: { context in
                    let (k, token) = (context.parameter, context.token)
                    return .signal(
                        context.inputs[0].signal.map { value -> Int? in
                            withExtendedLifetime(token) { Values.compactMap(value, k) }
                        }
                        .skipNil())
                },
                model: { setup in
                    let k = setup.parameter
                    let prefix = setup.inputPrefixes[0].flatMap { Values.compactMap($0, k) }
                    return ModelOperator(prefix: prefix) { wire, _, out in
                        guard case .value(let value) = wire else { return out.wires.append(wire) }
                        if let mapped = Values.compactMap(value, k) { out.send(mapped) }
                    }
                }),
            OperatorCase(
                name: "ignoreValues", inputs: [.signal], output: .signal, isStateless: true,
                // `map(value:)` makes the `Signal<Never>` a graph node; it has no value to map.
                build: { context in .signal(context.inputs[0].signal.ignoreValues().map(value: 0)) },
                model: { _ in
                    ModelOperator { wire, _, out in
                        if wire == .completed { out.complete() }
                    }
                }),
        ]
    }

    // MARK: - Lists (V.9)

    static var listCases: [OperatorCase] {
        [
            OperatorCase(
                name: "Signal.combineLatest([3])+mix", inputs: [.signal, .signal, .signal], output: .signal,
                build: { context in
                    .signal(Signal.combineLatest(context.inputs.map(\.signal)).map { Values.mixAll($0) })
                },
                model: { _ in
                    var latest: [Int?] = [nil, nil, nil]
                    var completions = 0
                    return ModelOperator { wire, port, out in
                        switch wire {
                        case .value(let value):
                            latest[port] = value
                            if !latest.contains(nil) { out.send(Values.mixAll(latest.map { $0! })) }
                        default:
                            completions += 1
                            if completions == 3 { out.complete() }
                        }
                    }
                }),
            OperatorCase(
                name: "Signal.zip([3])+mix", inputs: [.signal, .signal, .signal], output: .signal,
                build: { context in .signal(Signal.zip(context.inputs.map(\.signal)).map { Values.mixAll($0) }) },
                model: { _ in
                    var queues: [[Int]] = [[], [], []]
                    var done = [false, false, false]
                    return ModelOperator { wire, port, out in
                        switch wire {
                        case .value(let value): queues[port].append(value)
                        default: done[port] = true
                        }
                        while queues.allSatisfy({ !$0.isEmpty }) {
                            out.send(Values.mixAll(queues.indices.map { queues[$0].removeFirst() }))
                        }
                        if queues.indices.contains(where: { done[$0] && queues[$0].isEmpty }) { out.complete() }
                    }
                }),
            OperatorCase(
                name: "Property.combineLatest([3])+mix", inputs: [.property, .property, .property],
                output: .property, subscribesWhenBuilt: true,
                build: { context in
                    .property(Property.combineLatest(context.inputs.map(\.property)).map { Values.mixAll($0) })
                },
                model: { setup in Self.propertyCombineModel(setup, combine: Values.mixAll) }),
            // `[]` for good (V.9).
            OperatorCase(
                name: "Property.combineLatest([])+mix", inputs: [], output: .property,
                build: { _ in .property(Property<Int>.combineLatest([]).map { Values.mixAll($0) }) },
                model: { _ in ModelOperator(completedWhenBuilt: true, value: Values.mixAll([])) { _, _, _ in } }),
        ]
    }

    // MARK: - Properties from signals ("Edge rules")

    static var propertyVocabularyCases: [OperatorCase] {
        [
            // Holds `initial` until the signal sends, then each value that differs from the
            // last (values are `Int`, so equal ones are skipped as `map` skips them);
            // observes from when it is made, and completes with its signal, keeping the last
            // value (as `map` completes with its source).
            OperatorCase(
                name: "Property(initial:then:)", inputs: [.signal], output: .property, parameters: 0...7,
                subscribesWhenBuilt: true, stopsWhenFreed: true, isFedBySignal: true,
                build: { context in .property(Property(initial: context.parameter, then: context.inputs[0].signal)) },
                model: { setup in
                    var last = setup.parameter
                    return ModelOperator(value: setup.parameter) { wire, _, out in
                        if case .completed = wire { return out.wires.append(.completed) }
                        guard case .value(let value) = wire, value != last else { return }
                        last = value
                        out.wires.append(.invalidate)
                        out.send(value)
                    }
                }),
            // Follows a root property, or a constant, chosen by the value; a switch sets the
            // followed property's current value. The contract does not say whether it
            // notifies only changes (1.7) nor whether it is glitch-free with what it follows
            // (1.2): the model notifies each switch and each change it follows that differs
            // from the value it holds, each in a delivery of its own after the change that
            // caused it.
            OperatorCase(
                name: "Property.flatMapLatest", inputs: [.property], output: .property, subscribesWhenBuilt: true,
                usesPropertyPool: true, stopsWhenFreed: true, isFedBySignal: true,
                build: { context in
                    let (pool, token) = (context.propertyPool, context.token)
                    return .property(
                        context.inputs[0].property.flatMapLatest { value in
                            withExtendedLifetime(token) {
                                let index = Values.payload(value) % (pool.count + 1)
                                return index < pool.count ? pool[index] : Property(value: Values.map(value, 3))
                            }
                        })
                },
                model: { setup in
                    let pool = setup.propertyPool
                    var generation = 1
                    let follow: (Int) -> (node: Int?, value: Int) = { value in
                        let index = Values.payload(value) % (pool.count + 1)
                        return index < pool.count
                            ? (pool[index], setup.currentValue(pool[index])) : (nil, Values.map(value, 3))
                    }
                    let first = follow(setup.inputValues[0])
                    // Values are `Int`: a switch or change to the value it holds is skipped.
                    var last = first.value
                    // It completes once its input has and the property it follows has (a
                    // constant has from the start).
                    var (outerCompleted, innerCompleted) = (false, first.node == nil)
                    return ModelOperator(
                        value: first.value,
                        onStart: { out in
                            if let node = first.node { out.subscriptions.append((node, 100 + generation)) }
                        }
                    ) { wire, port, out in
                        if case .completed = wire {
                            if port == 0 { outerCompleted = true }
                            if port == 100 + generation { innerCompleted = true }
                            if outerCompleted && innerCompleted { out.complete() }
                            return
                        }
                        guard case .value(let value) = wire else { return }
                        if port == 0 {
                            out.unsubscriptions.append(100 + generation)
                            generation += 1
                            let next = follow(value)
                            innerCompleted = next.node == nil
                            if let node = next.node { out.subscriptions.append((node, 100 + generation)) }
                            out.later.append((.value(next.value), 100 + generation))
                        } else if port == 100 + generation, value != last {
                            last = value
                            out.wires.append(.invalidate)
                            out.send(value)
                        }
                    }
                }),
            // Each observer first gets the value current when it starts observing.
            OperatorCase(
                name: "currentAndChanges", inputs: [.property], output: .signal,
                build: { context in .signal(context.inputs[0].property.currentAndChanges) },
                model: { setup in
                    let input = setup.inputs[0]
                    return ModelOperator(replay: 1, onStart: { out in out.send(setup.currentValue(input)) }) {
                        wire, _, out in
                        switch wire {
                        case .value, .completed: out.wires.append(wire)
                        case .invalidate, .unchanged: break
                        }
                    }
                }),
        ]
    }
}
