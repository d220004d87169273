import Foundation

/// SplitMix64: a tiny seeded generator, so a failing graph is re-run from its seed alone.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (not empty).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool {
        int(0...99) < percent
    }

    mutating func element<T>(_ array: [T]) -> T {
        array[int(0...(array.count - 1))]
    }

    mutating func shuffled<T>(_ array: [T]) -> [T] {
        var result = array
        for index in result.indices.reversed() where index > 0 {
            result.swapAt(index, int(0...index))
        }
        return result
    }
}

/// A node of a checked graph: a root (a pipe or a ``MutableProperty``) or an operator
/// applied to earlier nodes.
struct GraphNode: CustomStringConvertible {
    enum Root {
        case pipe
        case property(initial: Int)
    }

    let root: Root?
    /// An index into `OperatorCase.all`, for an operator node.
    let operatorIndex: Int?
    let inputs: [Int]
    let parameter: Int

    var operatorCase: OperatorCase? { operatorIndex.map { OperatorCase.all[$0] } }

    var kind: NodeKind {
        switch root {
        case .pipe: .signal
        case .property: .property
        case nil: OperatorCase.all[operatorIndex!].output
        }
    }

    var isPipe: Bool {
        if case .pipe = root { return true }
        return false
    }

    var description: String {
        switch root {
        case .pipe: return "pipe"
        case .property(let initial): return "MutableProperty(\(initial))"
        case nil:
            let operatorCase = OperatorCase.all[operatorIndex!]
            let parameter = operatorCase.parameters.count > 1 ? " k=\(parameter)" : ""
            return "\(operatorCase.name)(\(inputs.map { "n\($0)" }.joined(separator: ", ")))\(parameter)"
        }
    }
}

/// What a sink does from inside its observer when it gets a value matching `remainder`
/// (value % 3), at most `budget` times: send to a root, or dispose a sink.
struct Reaction: CustomStringConvertible {
    enum Act {
        case send(root: Int, value: Int)
        case dispose(sink: Int)
    }

    let remainder: Int
    let act: Act
    let budget: Int

    var description: String {
        switch act {
        case .send(let root, let value): "on v%3==\(remainder) send \(value) to n\(root) (\(budget)x)"
        case .dispose(let sink): "on v%3==\(remainder) dispose sink \(sink)"
        }
    }
}

/// An observer at the end of the graph: `observe` (and `observeCompleted` for a signal),
/// recording everything it gets.
struct SinkSpec: CustomStringConvertible {
    let node: Int
    var reaction: Reaction?
    /// Observes before the script runs, rather than at an `observe` step of it.
    var early: Bool

    var description: String {
        "on n\(node)\(early ? "" : " (late)")\(reaction.map { ", \($0)" } ?? "")"
    }
}

/// A step of a script.
enum Step: CustomStringConvertible {
    /// Sends (to a pipe) or sets (a property) a value.
    case send(root: Int, value: Int)
    case complete(root: Int)
    case dispose(sink: Int)
    case observe(sink: Int)
    /// The steps inside `withBatchedChanges` (sends and completions only).
    indirect case batch([Step])

    var description: String {
        switch self {
        case .send(let root, let value): "n\(root) <- \(value)"
        case .complete(let root): "n\(root) completes"
        case .dispose(let sink): "dispose sink \(sink)"
        case .observe(let sink): "observe sink \(sink)"
        case .batch(let steps): "batch { \(steps.map(\.description).joined(separator: "; ")) }"
        }
    }
}

/// A random graph of operators over one to three pipes and properties, with sinks.
struct Graph: CustomStringConvertible {
    var nodes: [GraphNode] = []
    var sinks: [SinkSpec] = []

    var pipes: [Int] { nodes.indices.filter { nodes[$0].isPipe } }
    var propertyRoots: [Int] { nodes.indices.filter { !nodes[$0].isPipe && nodes[$0].root != nil } }
    var roots: [Int] { nodes.indices.filter { nodes[$0].root != nil } }

    var description: String {
        var lines = nodes.enumerated().map { "  n\($0.offset) = \($0.element)" }
        lines += sinks.enumerated().map { "  sink \($0.offset) \($0.element)" }
        return lines.joined(separator: "\n")
    }

    /// A random graph: roots, then operators over earlier nodes (recent ones more often,
    /// for depth), then sinks.
    static func random(_ random: inout SplitMix64, reactions: Bool, pipes pipeRange: ClosedRange<Int> = 1...3)
        -> Graph
    {
        var graph = Graph()
        let pipes = random.int(pipeRange)
        let properties = random.int(0...2)
        for _ in 0..<pipes { graph.nodes.append(GraphNode(root: .pipe, operatorIndex: nil, inputs: [], parameter: 0)) }
        for _ in 0..<properties {
            graph.nodes.append(
                GraphNode(root: .property(initial: random.int(0...7)), operatorIndex: nil, inputs: [], parameter: 0))
        }
        let cases = OperatorCase.all
        var bridged = Set<Int>()
        // Properties that have completed by the time they are made (`[]` for good).
        var doneWhenBuilt = Set<Int>()
        let operators = random.int(2...8)
        var attempts = 0
        while graph.nodes.count < pipes + properties + operators, attempts < 100 {
            attempts += 1
            let index = random.int(0...(cases.count - 1))
            let operatorCase = cases[index]
            var inputs: [Int] = []
            for kind in operatorCase.inputs {
                let candidates = graph.nodes.indices.filter { graph.nodes[$0].kind == kind }
                guard !candidates.isEmpty else { break }
                // Half the time one of the last three candidates, for deeper chains.
                let pick =
                    random.chance(50) ? random.element(Array(candidates.suffix(3))) : random.element(candidates)
                inputs.append(pick)
            }
            guard inputs.count == operatorCase.inputs.count else { continue }
            if operatorCase.oncePerInput {
                guard !bridged.contains(inputs[0]) else { continue }
                bridged.insert(inputs[0])
            }
            if operatorCase.output == .property, !operatorCase.stopsWhenFreed,
                inputs.isEmpty
                    ? operatorCase.model(.unused).completedWhenBuilt : inputs.allSatisfy(doneWhenBuilt.contains)
            {
                doneWhenBuilt.insert(graph.nodes.count)
            }
            graph.nodes.append(
                GraphNode(
                    root: nil, operatorIndex: index, inputs: inputs,
                    parameter: random.int(operatorCase.parameters)))
        }
        let sinkCount = random.int(1...4)
        for _ in 0..<sinkCount {
            let node =
                random.chance(60)
                ? random.int(max(0, graph.nodes.count - 3)...(graph.nodes.count - 1))
                : random.int(0...(graph.nodes.count - 1))
            graph.sinks.append(SinkSpec(node: node, reaction: nil, early: random.chance(75)))
        }
        if reactions {
            for index in graph.sinks.indices where random.chance(35) {
                let act: Reaction.Act =
                    random.chance(70)
                    ? .send(root: random.element(graph.roots), value: random.int(0...7))
                    : .dispose(sink: random.int(0...(graph.sinks.count - 1)))
                graph.sinks[index].reaction = Reaction(
                    remainder: random.int(0...2), act: act, budget: random.int(1...3))
            }
        }
        return graph
    }

    /// The roots each node depends on, including the pool of an operator that switches.
    func rootsFeeding(_ node: Int) -> Set<Int> {
        let graphNode = nodes[node]
        if graphNode.root != nil { return [node] }
        var roots = Set<Int>()
        for input in graphNode.inputs { roots.formUnion(rootsFeeding(input)) }
        if graphNode.operatorCase?.usesPool == true { roots.formUnion(pipes) }
        if graphNode.operatorCase?.usesPropertyPool == true { roots.formUnion(propertyRoots) }
        return roots
    }

    /// Whether every operator between `node` and its roots is stateless (`isStateless`).
    func isStateless(_ node: Int) -> Bool {
        let graphNode = nodes[node]
        if graphNode.root != nil { return true }
        guard graphNode.operatorCase?.isStateless == true else { return false }
        return graphNode.inputs.allSatisfy(isStateless)
    }

    /// The number of paths from `root` down to `node`.
    func paths(from root: Int, to node: Int) -> Int {
        if node == root { return 1 }
        return nodes[node].inputs.reduce(0) { $0 + paths(from: root, to: $1) }
    }
}
