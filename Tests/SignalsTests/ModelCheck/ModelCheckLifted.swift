import Signals

// Lifted operators (7.7a) in the model check: each single-input signal operator of
// `classic` and `vocabulary`, applied with `Producer.lift` to the run of a producer that
// forwards its input signal, and checked against the operator's own model. The node is
// the run's signal (`signal()`, one run, started at its first observer and shared by the
// node's observers), its values taken with `successes()`.
//
// What differs from the operator on the signal, and so from its case's flags:
// - Inside a run the operator's input is the run's values, which have no prefix and
//   replay nothing: the input signal's prefix and replayed values reach the run as its
//   first values, when it starts (it observes the input then). So no lifted case carries
//   a prefix or replay (`carriesPrefix`, `carriesReplay` false), and the operator's model
//   is set up with an input without prefix.
// - The run observes the operator's output once, when it starts: what the operator gives
//   each new observer (`prefix(value:)`'s value, `take(first: 0)`'s completion) comes once,
//   at the run's start, to the node's first observer (`onStart`), not to every observer;
//   `share(replay:)` replays to nobody (its model's `replay` is dropped).
// - Nothing is held back or reordered by the lift, so a stateless operator is stateless
//   lifted; the run subscribes at its first observer, as the operator does.
// Left out: the operators over two or more signals (`merge`, `combineLatest`, `zip`,
// `take(until:)`, `skip(until:)`, `withLatest(from:)`, `sample(on:)`), which `lift`
// takes only as a closure over the others, and those over or to properties, which
// are no signal operators.

/// The failure of the run of `lift(filter+map) failing`: the value that made it fail.
struct LiftedRunFailure: Error {
    let value: Int
}

/// A case's `build`, to call from a lifted run's `@Sendable` transform.
// Safe to share: the cases' builds are never changed and capture nothing that changes.
private struct SendableBuild: @unchecked Sendable {
    let build: (BuildContext) -> Built
}

extension OperatorCase {
    /// The single-input signal operators that are checked lifted too, by name.
    static let liftedNames = [
        "map", "filter", "compactMap", "scan", "skipRepeats", "take(first:)", "skip(first:)", "prefix(value:)",
        "flatMapLatest", "flatMap(.merge)", "flatMap(.merge(limit: 2))", "flatMap(.concat)", "flatMap(.first)",
        "flatMap(Producer)+successes", "combinePrevious", "take(while:)", "skip(while:)", "share(replay:)",
        "on(value:)", "map(value:)", "map+skipNil", "ignoreValues",
    ]

    /// `liftedNames` lifted (from `bases`), `liftedTwiceNames` over two runs, and a failure
    /// passing through a lift.
    static func liftedCases(of bases: [OperatorCase]) -> [OperatorCase] {
        let base = { (name: String) in bases.first { $0.name == name }! }
        return liftedNames.map { lifted(base($0)) } + liftedTwiceNames.map { liftedTwice(base($0)) }
            + [liftedFailing]
    }

    /// `base` applied to each run of a producer that forwards the input signal.
    /// A producer whose runs forward the node's input through `build`, lifted.
    private static func liftedProducer(_ build: SendableBuild, in context: BuildContext) -> Producer<Int, Never> {
        let (parameter, pool, propertyPool, token) =
            (context.parameter, context.pool, context.propertyPool, context.token)
        return Producer<Int, Never>.forwarding(context.inputs[0].signal, token: token)
            .lift { values in
                build.build(
                    BuildContext(
                        inputs: [.signal(values)], parameter: parameter, pool: pool, propertyPool: propertyPool,
                        token: token)
                ).signal
            }
    }

    static func lifted(_ base: OperatorCase) -> OperatorCase {
        precondition(base.inputs == [.signal] && base.output == .signal && !base.subscribesWhenBuilt)
        let build = SendableBuild(build: base.build)
        return OperatorCase(
            name: "lift(\(base.name))", inputs: [.signal], output: .signal, parameters: base.parameters,
            isStateless: base.isStateless, usesPool: base.usesPool,
            build: { context in
                let producer = liftedProducer(build, in: context)
                return .signal(producer.signal().successes())
            },
            model: { setup in
                let model = base.model(setup.insideARun)
                return ModelOperator(
                    onStart: { out in
                        model.onStart?(&out)
                        if let prefix = model.prefix { out.send(prefix) }
                        if model.completedWhenBuilt { out.complete() }
                    }, step: model.step)
            })
    }

    /// The run fails on a value of payload 6 (before the lifted operators see it): the node
    /// sends the run's values filtered and mapped, then the failure as `failureMark`, then
    /// completes; a failure is the run's last event (7.7a).
    static var liftedFailing: OperatorCase {
        OperatorCase(
            name: "lift(filter+map) failing", inputs: [.signal], output: .signal, parameters: 0...2,
            build: { context in
                let (k, token, source) = (context.parameter, context.token, context.inputs[0].signal)
                let producer = Producer<Int, LiftedRunFailure> { input in
                    let values = source.observe { value in
                        withExtendedLifetime(token) {
                            if failsRun(value) {
                                input.send(failure: LiftedRunFailure(value: value))
                            } else {
                                input.send(value)
                            }
                        }
                    }
                    let completion = source.observeCompleted { input.sendCompleted() }
                    return AnyDisposable {
                        values.dispose()
                        completion.dispose()
                    }
                }
                .lift { values in
                    values.filter { value in withExtendedLifetime(token) { Values.keeps(value, k) } }
                        .map { value in withExtendedLifetime(token) { Values.map(value, k) } }
                }
                return .signal(
                    producer.signal().map { result in
                        switch result {
                        case .success(let value): value
                        case .failure(let failure): failureMark(failure.value)
                        }
                    })
            },
            model: { setup in
                let k = setup.parameter
                return ModelOperator { wire, _, out in
                    guard case .value(let value) = wire else { return out.wires.append(wire) }
                    if failsRun(value) {
                        out.send(failureMark(value))
                        out.complete()
                    } else if Values.keeps(value, k) {
                        out.send(Values.map(value, k))
                    }
                }
            })
    }

    static func failsRun(_ value: Int) -> Bool { Values.payload(value) % 8 == 6 }

    /// What `lift(filter+map) failing` sends for the failure: the failing value's tag, and
    /// a payload no operator makes from a root's value.
    static func failureMark(_ value: Int) -> Int { Values.keepingTag(value, 100 + Values.payload(value)) }
}

extension ModelSetup {
    /// The setup of a lifted operator inside a run: its input is the run's values, with no
    /// prefix (and no property value).
    var insideARun: ModelSetup {
        var setup = ModelSetup(
            parameter: parameter, inputs: inputs, inputPrefixes: inputs.map { _ in nil },
            inputValues: inputs.map { _ in 0 }, pool: pool, propertyPool: propertyPool, currentValue: currentValue)
        setup.inputsFedBySignal = inputsFedBySignal
        setup.shouldWait = shouldWait
        return setup
    }
}

extension Producer where Value == Int, Failure == Never {
    /// A producer whose every run forwards `source`'s values and completion, from when it
    /// starts.
    static func forwarding(_ source: Signal<Int>, token: ClosureToken) -> Self {
        Producer { input in
            let values = source.observe { value in withExtendedLifetime(token) { input.send(value) } }
            let completion = source.observeCompleted { input.sendCompleted() }
            return AnyDisposable {
                values.dispose()
                completion.dispose()
            }
        }
    }
}

extension OperatorCase {
    /// The stateful single-input operators also checked over two runs of one lifted producer.
    static let liftedTwiceNames = ["scan", "skipRepeats", "skip(first:)", "combinePrevious", "take(while:)"]

    /// `base` lifted, over two runs of the one producer merged: each run has a `transform` of
    /// its own (7.7a), so each keeps its own state though both see the same values. The runs
    /// start one after the other at the node's first observer, each observing the input (the
    /// model's ports 1 and 0, in that order); the node completes when both runs have.
    /// Only for operators that send nothing when they start and switch to no other signal:
    /// a start's output would come before the second run's subscription, which the model's
    /// `onStart` cannot order, and two models' own ports would collide. Not stateless: two
    /// runs' values of one root come in pairs, which the concurrent check does not count.
    static func liftedTwice(_ base: OperatorCase) -> OperatorCase {
        precondition(base.inputs == [.signal] && base.output == .signal && !base.usesPool)
        let build = SendableBuild(build: base.build)
        return OperatorCase(
            name: "lift(\(base.name)) twice", inputs: [.signal], output: .signal, parameters: base.parameters,
            build: { context in
                let producer = liftedProducer(build, in: context)
                return .signal(Signal.merge(producer.signal().successes(), producer.signal().successes()))
            },
            model: { setup in
                // The first run is the one subscribed in `onStart` (port 1), before port 0.
                let runs = [base.model(setup.insideARun), base.model(setup.insideARun)]
                precondition(runs[0].prefix == nil && !runs[0].completedWhenBuilt && runs[0].onStart == nil)
                var completed = [false, false]
                return ModelOperator(onStart: { out in out.subscriptions.append((setup.inputs[0], 1)) }) {
                    wire, port, out in
                    let run = port == 1 ? 0 : 1
                    guard !completed[run] else { return }
                    var effects = Effects()
                    runs[run].step(wire, 0, &effects)
                    for wire in effects.wires {
                        if wire == .completed {
                            completed[run] = true
                            if completed[1 - run] { out.complete() }
                            return
                        }
                        out.wires.append(wire)
                    }
                }
            })
    }
}
