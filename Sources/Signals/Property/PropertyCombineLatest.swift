extension Property {
    /// A property of the latest values of `first` and every one of `others`, as a flat tuple.
    ///
    /// `Property.combineLatest(a, b, c)` is a `Property<(A, B, C)>`. One change of a source
    /// shared by several inputs produces one emission, never an intermediate combination.
    /// Completes when every input has completed.
    ///
    /// ```swift
    /// let form = Property.combineLatest(username, password, accepted)
    /// form.observe { name, password, accepted in print(name, accepted) }
    /// ```
    @inlinable
    public static func combineLatest<each Other: Sendable>(
        _ first: Property<Value>,
        _ others: repeat Property<each Other>
    ) -> Property<(Value, repeat each Other)> {
        combined(first, repeat each others, cells: Latest(first.node.read()), repeat Latest((each others).node.read()))
    }

    /// A property of the latest values of `first` and every one of `others`, as a flat tuple.
    ///
    /// With `Equatable` inputs it notifies only when the combination actually changes.
    @inlinable
    public static func combineLatest<each Other: Sendable & Equatable>(
        _ first: Property<Value>,
        _ others: repeat Property<each Other>
    ) -> Property<(Value, repeat each Other)> where Value: Equatable {
        combined(
            first, repeat each others, cells: Latest(first.node.read(), ==),
            repeat Latest((each others).node.read(), ==))
    }

    /// A property of the latest values of `first` and `second`, as a pair.
    ///
    /// The same as the variadic ``combineLatest(_:_:)-4z2jp``, specialized for the most
    /// common case, which a client's compiler can then build for its own types.
    @inlinable
    public static func combineLatest<Other: Sendable>(_ first: Property<Value>, _ second: Property<Other>) -> Property<
        (Value, Other)
    > {
        CombinedPair(first, second, inputsChanged: nil).combined({ $0 }, sources: [first, second], isPair: true)
    }

    /// A property of the latest values of `first` and `second`, as a pair, notifying only
    /// when the pair actually changes.
    @inlinable
    public static func combineLatest<Other: Sendable & Equatable>(
        _ first: Property<Value>, _ second: Property<Other>
    ) -> Property<(Value, Other)> where Value: Equatable {
        // Compared with `==` in line, in this closure made where the types are known to be
        // `Equatable`: one call a change, where a comparison closure per input was two.
        CombinedPair(first, second) { first, second in
            let changed = first.settleByEquality()
            return second.settleByEquality() || changed
        }.combined({ $0 }, sources: [first, second], isPair: true)
    }

    /// A property of the values of all `properties`, in their order, as one array.
    ///
    /// It is for a list whose length is known only at run time (one property per row). Glitch-free
    /// like ``combineLatest(_:_:)-4z2jp``: one change of a source shared by several inputs
    /// produces one emission, never an intermediate array. Completes when every input has
    /// completed. The combination of an empty list is `[]`, for good (a completed property).
    ///
    /// ```swift
    /// let total = Property.combineLatest(rows.map(\.price)).map { $0.reduce(0, +) }
    /// ```
    public static func combineLatest(_ properties: [Property<Value>]) -> Property<[Value]> {
        combinedList(properties, properties.map { Latest($0.node.read()) })
    }

    /// A property of the values of all `properties`, in their order, as one array.
    ///
    /// With `Equatable` inputs it notifies only when the array actually changes.
    public static func combineLatest(_ properties: [Property<Value>]) -> Property<[Value]> where Value: Equatable {
        combinedList(properties, properties.map { Latest($0.node.read(), ==) })
    }

    /// Each input's latest value is kept typed in its cell, so a change is stored, compared
    /// and combined with no boxing, cast or copy of the others; and the whole is inlinable,
    /// so that a client specializes it for its types (unspecialized, looking up the generic
    /// types' metadata cost most of a change). The cells hold no input: what the inputs'
    /// subscriptions reach must not reach back to them.
    @inlinable
    static func combined<each Other: Sendable>(
        _ first: Property<Value>,
        _ others: repeat Property<each Other>,
        cells firstCell: Latest<Value>,
        _ otherCells: repeat Latest<each Other>
    ) -> Property<(Value, repeat each Other)> {
        let nodes = (repeat (each others).node)
        let cells = (repeat each otherCells)
        let firstNode = first.node
        var sources: [AnyObject] = [first]
        var isFedBySignal = firstNode.isFedBySignal
        for other in repeat each others {
            sources.append(other)
            isFedBySignal = isFedBySignal || other.node.isFedBySignal
        }
        let derived = PropertyNode(
            isFedBySignal: isFedBySignal, read: { (firstNode.read(), repeat (each nodes).read()) })
        let combination = Combination(
            output: derived.core, inputs: sources.count, isFedBySignal: isFedBySignal,
            build: { (firstCell.value, repeat (each cells).value) },
            settled: {
                var changed = firstCell.settle()
                for cell in repeat each cells { changed = cell.settle() || changed }
                return changed ? (firstCell.value, repeat (each cells).value) : nil
            }, settlesFirst: firstCell.isEquivalent != nil)
        combination.attach(firstNode, firstCell)
        repeat combination.attach((each others).node, each otherCells)
        return Property<(Value, repeat each Other)>(node: derived, sources: sources)
    }

    private static func combinedList(_ properties: [Property<Value>], _ cells: [Latest<Value>]) -> Property<[Value]> {
        guard !cells.isEmpty else { return Property<[Value]>(value: []) }
        let nodes = properties.map(\.node)
        let isFedBySignal = nodes.contains { $0.isFedBySignal }
        let derived = PropertyNode<[Value]>(isFedBySignal: isFedBySignal, read: { nodes.map { $0.read() } })
        let combination = Combination(
            output: derived.core, inputs: cells.count, isFedBySignal: isFedBySignal,
            build: { cells.map(\.value) },
            settled: { cells.reduce(false) { $1.settle() || $0 } ? cells.map(\.value) : nil },
            // Its array is built out of the lock: it is as long as the list.
            settlesFirst: true)
        for (node, cell) in Swift.zip(nodes, cells) { combination.attach(node, cell) }
        return Property<[Value]>(node: derived, sources: properties)
    }
}

/// The latest value of one input of a combined property and, when inputs are compared, the
/// value of the last emission.
// Safe to share: `value` and `emitted` are touched only inside the serialized deliveries
// of the combined property's core.
@usableFromInline
final class Latest<Value: Sendable>: @unchecked Sendable {
    /// A `var` only to be called borrowed (`call(_:_:_:)`), with no retain.
    @usableFromInline @exclusivity(unchecked) var isEquivalent: ((Value, Value) -> Bool)?
    @usableFromInline @exclusivity(unchecked) var value: Value
    @usableFromInline @exclusivity(unchecked) var emitted: Value

    @inlinable
    init(_ value: Value, _ isEquivalent: ((Value, Value) -> Bool)? = nil) {
        self.isEquivalent = isEquivalent
        self.value = value
        emitted = value
    }

    /// Calls `compare`, borrowing it: the exclusive access means the call cannot replace
    /// it, so its context is not retained around the call (as `ClosureObserver.call`).
    @inlinable @inline(__always)
    static func call<Argument>(
        _ compare: inout ((Argument, Argument) -> Bool)?, _ first: Argument, _ second: Argument
    ) -> Bool? {
        compare?(first, second)
    }

    /// Whether `value` is new to the observers (always, when inputs are not compared);
    /// records it as emitted. In line: it is a compare and a store, called per input.
    @inlinable @inline(__always)
    func settle() -> Bool {
        guard let isSame = Self.call(&isEquivalent, emitted, value) else { return true }
        if isSame { return false }
        emitted = value
        return true
    }
}

extension Latest where Value: Equatable {
    /// `settle()` by `==` itself rather than a comparison closure: in line where the type is
    /// known, as in the closure a combined pair compares its inputs with.
    @inlinable @inline(__always)
    func settleByEquality() -> Bool {
        if emitted == value { return false }
        emitted = value
        return true
    }
}

/// One step of an input of a combined property.
@usableFromInline
enum CombineEvent<Input> {
    /// A step of the input's change, as the input sent it.
    case change(Change<Input>)
    case completed
    /// The propagation the property waited for has ended (see `Propagation`).
    case propagationEnded
}

/// The bookkeeping of `Property.combineLatest`: how many inputs are invalidated and not
/// settled yet, and whether any of them changed.
// Safe to share: its state is touched only inside the serialized deliveries of `output`.
@usableFromInline
final class Combination<Combined: Sendable>: @unchecked Sendable {
    @usableFromInline let output: SignalCore<Change<Combined>>
    @usableFromInline let inputs: Int
    /// Whether an input is fed by a signal: then it waits for the end of every root
    /// change, not only of a batch.
    @usableFromInline let isFedBySignal: Bool
    @usableFromInline let build: () -> Combined
    /// The combination, built, when an input changed for the observers since the last
    /// emission (`Latest.settle`); else nil. One call where a check and a build were two.
    @usableFromInline let settled: () -> Combined?
    /// Whether a change is settled before it is built and committed (see `take`): when the
    /// inputs are compared (`Equatable`), or the combination is a list's.
    @usableFromInline let settlesFirst: Bool
    /// Where a change settled first is committed, as its delivery ends (`take`); unused
    /// when changes are committed as they start. Not optional: bound from an optional, it
    /// was retained around the user code it is held across.
    @usableFromInline let late = LateCommit<Change<Combined>>()
    @usableFromInline let gate = Propagation.gate
    @usableFromInline @exclusivity(unchecked) var unsettled = 0
    @usableFromInline @exclusivity(unchecked) var isChanged = false
    @usableFromInline @exclusivity(unchecked) var completions = 0
    /// Settled inside a propagation, and waiting for its end to emit.
    @usableFromInline @exclusivity(unchecked) var isWaiting = false

    /// `inputs` is known before attaching: an input that has completed already completes
    /// at once, while it is attached, and the last completion must find the count.
    @inlinable
    init(
        output: SignalCore<Change<Combined>>, inputs: Int, isFedBySignal: Bool, build: @escaping () -> Combined,
        settled: @escaping () -> Combined?, settlesFirst: Bool
    ) {
        self.output = output
        self.inputs = inputs
        self.isFedBySignal = isFedBySignal
        self.build = build
        self.settled = settled
        self.settlesFirst = settlesFirst
        // Before the output has observers: nothing reads it yet.
        if settlesFirst { output.lateCommit = late }
    }

    /// Subscribes `output` to the input `node`: each of its steps runs inside `output`'s
    /// serialized section, a change stored in `cell` first.
    @inlinable
    func attach<Input: Sendable>(_ node: PropertyNode<Input>, _ cell: Latest<Input>) {
        let link = CombinationLink(self, cell)
        let input = PairForwardObserver<Change<Input>>(
            onValue: { link.serialize(.change($0)) }, onPair: { link.take($0) },
            onCompleted: { link.serialize(.completed) })
        output.addUpstream(node.core.add(input))
    }

    /// Takes a change that comes with its `invalidate` (a root's pair, see `emitPair`).
    /// When nothing else is under way (no delivery, no input unsettled, no propagation to
    /// wait for), the pair settles in the delivery it starts: the cell is stored (and, for
    /// inputs that are not compared, the combination built and committed) in the section
    /// that starts it, one lock round trip where the two steps took three (two when the
    /// combination is committed after its comparison). Otherwise both steps run in one
    /// serialized section. A change settled after that section (compared inputs, a mapped
    /// pair, a list) is committed in the section that ends the delivery (`LateCommit`):
    /// two round trips where a commit of its own made three.
    @inlinable @inline(__always)
    func take<Input>(_ value: Input, from link: CombinationLink<Input, Combined>) {
        let waits = gate.isOpen && Propagation.shouldWait(fedBySignal: isFedBySignal)
        var replaced: Input?
        // Compared inputs (`Equatable`) are committed only once `settled` (user code, after
        // the lock) says the combination changed, as the delivery ends: an equal set must
        // not reach an observer that is registering. Inputs that are not compared always
        // change, and are built and committed in the first section (a list's array is
        // built after it, as long as the list is).
        let entered = output.enterIfIdle(committing: !settlesFirst) {
            guard unsettled == 0, !isWaiting, !waits else { return nil }
            var previous = value
            swap(&previous, &link.cell.value)
            replaced = previous
            // Built under the lock only when it is committed there; else after, if it changed.
            guard settlesFirst else { return .changed(build()) }
            link.late.open()
            return .unchanged
        }
        defer { withExtendedLifetime(replaced) {} }
        if let change = entered {
            if output.snapshotTakesLead { output.emit(.invalidate) }
            if settlesFirst { return settle(committingAtTheEnd: link.late) }
            output.emit(change)
            return output.leaveDelivery()
        }
        output.serialize(value) { value in
            link.step(.change(.invalidate))
            link.step(.change(.changed(value)))
        }
    }

    /// Settles the change whose delivery `take` started, as a serialized change settles
    /// (`emit()`): compared, built, delivered, and committed if it changed, as the delivery
    /// ends. `late` is a parameter, not a local of `take`: held across the user code of
    /// `settled`, a local was retained around it.
    @inlinable @inline(__always)
    func settle(committingAtTheEnd late: LateCommit<Change<Combined>>) {
        isChanged = false
        let change = settled().map { Change.changed($0) }
        late.change = change
        output.emit(change ?? .unchanged)
        output.leaveDelivery(committing: late)
    }

    /// Takes one event (a change's value is in its input's cell already); one that settles
    /// the property inside a propagation waits for the propagation's end to emit.
    @inlinable
    func step<Input>(_ event: CombineEvent<Input>) {
        switch event {
        case .change(.invalidate):
            unsettled += 1
            if unsettled == 1 && !isWaiting { output.emit(.invalidate) }
            return
        case .change(.changed):
            isChanged = true
        case .change(.unchanged):
            break
        case .completed:
            completions += 1
            guard completions == inputs else { return }
            // A change waiting for its propagation goes out first: what is derived from this
            // property has counted its `invalidate` and waits for it to settle.
            if isWaiting && unsettled == 0 {
                isWaiting = false
                emit()
            }
            output.emitCompleted()
            return
        case .propagationEnded:
            isWaiting = false
            // An input invalidated again meanwhile (on another thread) settles it later.
            if unsettled == 0 { emit() }
            return
        }
        if unsettled == 0 {
            // A change without its invalidation (an input attached mid-change): treat it
            // as a change of its own.
            if !isWaiting { output.emit(.invalidate) }
        } else {
            unsettled -= 1
            guard unsettled == 0 else { return }
        }
        if isWaiting { return }
        guard Propagation.shouldWait(fedBySignal: isFedBySignal) else { return emit() }
        isWaiting = true
        Propagation.current.wait {
            self.output.serialize(CombineEvent<Void>.propagationEnded) { self.step($0) }
        }
    }

    /// Sends the settled combination: the change, or that nothing changed.
    @inlinable
    func emit() {
        let combined = isChanged ? settled() : nil
        isChanged = false
        output.emit(combined.map { .changed($0) } ?? .unchanged, committing: combined != nil)
    }
}

/// One input of a combination: its cell, and the steps its observer takes. The input's
/// closures capture this one object, so each is called with it as its context, with no
/// box of captures to unpack per change.
// Safe to share: all `let`s; its steps run inside the combination's serialized deliveries.
@usableFromInline
final class CombinationLink<Input: Sendable, Combined: Sendable>: @unchecked Sendable {
    @usableFromInline let combination: Combination<Combined>
    @usableFromInline let cell: Latest<Input>
    /// The combination's, read here: read through the combination, it was retained around
    /// the user code it is held across.
    @usableFromInline let late: LateCommit<Change<Combined>>
    /// Takes one event inside the combination's serialized section, a change's value
    /// stored in the cell first. Made once (a closure made per event would retain its
    /// context), and capturing the cell and the combination, not this link, which holds it.
    @usableFromInline let step: (CombineEvent<Input>) -> Void

    @inlinable
    init(_ combination: Combination<Combined>, _ cell: Latest<Input>) {
        self.combination = combination
        self.cell = cell
        late = combination.late
        step = { event in
            if case .change(.changed(let value)) = event { cell.value = value }
            combination.step(event)
        }
    }

    /// Runs `event` as a step of its own, serialized with the combination's deliveries.
    @inlinable
    func serialize(_ event: CombineEvent<Input>) {
        combination.output.serialize(event, step)
    }

    /// Takes a root's `invalidate`/`changed` pair, given as its second event.
    @inlinable
    func take(_ change: Change<Input>) {
        guard case .changed(let value) = change else {
            // Not a set's pair (none sends another today): its two events, one by one.
            serialize(.change(.invalidate))
            return serialize(.change(change))
        }
        combination.take(value, from: self)
    }
}

/// An input of a combined property: a `ForwardObserver` that also takes a root's
/// `invalidate`/`changed` pair in one call, `onPair`, which `SignalCore.emitPair` calls
/// directly (`Observer.takesPairs`), as `emit` calls a link's `onValue`: no virtual call of
/// a method left unspecialized on the way. Its closures are made in inlinable code, so
/// that they are specialized for the client's types (the methods of a generic class are not).
// Safe to share: its closures are `let`s, called only by the delivering thread.
@usableFromInline
final class PairForwardObserver<Value>: ForwardObserver<Value>, @unchecked Sendable {
    /// Takes the pair, given as its second event.
    @usableFromInline let onPair: (Value) -> Void

    @inlinable
    init(onValue: @escaping (Value) -> Void, onPair: @escaping (Value) -> Void, onCompleted: @escaping () -> Void) {
        self.onPair = onPair
        super.init(onValue: onValue, onCompleted: onCompleted, takesPairs: true)
    }
}

/// How a combined pair is made, kept by the pair so that a `map` of it is made the same way:
/// one combination of the two inputs, `transform` applied as it is built, with no property
/// of the pair between (contract 1.9a).
// Safe to share: all `let`s; the comparison is called only inside serialized deliveries.
@usableFromInline
final class CombinedPair<First: Sendable, Second: Sendable>: @unchecked Sendable {
    /// The inputs' nodes, not their properties: what holds only the pair's node (a
    /// `currentAndChanges` not observed yet) must not keep an input's wrapper alive (a
    /// `MutableProperty` completes when freed); a map takes the pair's `sources`. Strong,
    /// as nothing a node reaches leads back to the pair, and weak would give each a side
    /// table.
    @usableFromInline let first: PropertyNode<First>
    @usableFromInline let second: PropertyNode<Second>
    /// Whether an input changed since the last emission, recording it (`Latest.settle`),
    /// for `Equatable` inputs; nil when they are not compared (every change is one).
    @usableFromInline let inputsChanged: ((Latest<First>, Latest<Second>) -> Bool)?

    @inlinable
    init(
        _ first: Property<First>, _ second: Property<Second>,
        inputsChanged: ((Latest<First>, Latest<Second>) -> Bool)?
    ) {
        self.first = first.node
        self.second = second.node
        self.inputsChanged = inputsChanged
    }

    /// `transform` of the pair as one combination of its inputs, which `sources` keep (the
    /// pair itself is the identity, `isPair`). The inputs are compared as the pair's;
    /// `transform` runs out of the lock, as a map's does, so the result is committed after
    /// it; the pair is built in the lock when its inputs are not compared.
    @inlinable
    func combined<Output: Sendable>(
        _ transform: @escaping ((First, Second)) -> Output, sources: [AnyObject], isPair: Bool = false
    ) -> Property<Output> {
        combination(of: transform, sources: sources, isPair: isPair) { cells, _ in
            ({ cells.build() }, { cells.settled() })
        }
    }

    /// `transform` of the pair as `combined(_:sources:isPair:)` makes it, its result then
    /// compared as an `Equatable` map's, with `==` in line (comparison closures, one per
    /// input and one for the result, were a third of a change).
    @inlinable
    func combinedComparing<Output: Sendable & Equatable>(
        _ transform: @escaping ((First, Second)) -> Output, sources: [AnyObject]
    ) -> Property<Output> {
        combination(of: transform, sources: sources, isPair: false) { cells, initial in
            let compared = ComparedPairCells(cells, Latest(initial()))
            return ({ compared.result.value }, { compared.settled() })
        }
    }

    /// The combination both make: `closures` gives, for the cells and what reads the
    /// current result (called only to keep it, as `transform` is called once per read),
    /// what builds the result and what settles a change (see `Combination`).
    @inlinable
    func combination<Output: Sendable>(
        of transform: @escaping ((First, Second)) -> Output, sources: [AnyObject], isPair: Bool,
        closures: (PairCells<First, Second, Output>, () -> Output) -> (() -> Output, () -> Output?)
    ) -> Property<Output> {
        // Locals, so that the closures below capture the nodes, not this object.
        let (firstNode, secondNode) = (first, second)
        let (firstCell, secondCell) = (Latest(firstNode.read()), Latest(secondNode.read()))
        let isFedBySignal = firstNode.isFedBySignal || secondNode.isFedBySignal
        let derived = PropertyNode(
            isFedBySignal: isFedBySignal, read: { transform((firstNode.read(), secondNode.read())) },
            pair: isPair ? self : nil)
        // Each closure captures one object (`PairCells`, `ComparedPairCells`), so that it is
        // called with it as its context; the last result is kept for an `Equatable` one only.
        let (build, settled) = closures(PairCells(firstCell, secondCell, transform, inputsChanged), derived.read)
        let combination = Combination(
            output: derived.core, inputs: 2, isFedBySignal: isFedBySignal, build: build, settled: settled,
            settlesFirst: !isPair || inputsChanged != nil)
        combination.attach(firstNode, firstCell)
        combination.attach(secondNode, secondCell)
        return Property<Output>(node: derived, sources: sources)
    }
}

/// The two cells of a combined pair, how their change is told, and the `transform` applied
/// as it is built.
// Safe to share: all `let`s; the cells are touched only inside serialized deliveries.
@usableFromInline
final class PairCells<First: Sendable, Second: Sendable, Output>: @unchecked Sendable {
    @usableFromInline let first: Latest<First>
    @usableFromInline let second: Latest<Second>
    @usableFromInline let transform: ((First, Second)) -> Output
    @usableFromInline let inputsChanged: ((Latest<First>, Latest<Second>) -> Bool)?

    @inlinable
    init(
        _ first: Latest<First>, _ second: Latest<Second>, _ transform: @escaping ((First, Second)) -> Output,
        _ inputsChanged: ((Latest<First>, Latest<Second>) -> Bool)?
    ) {
        self.first = first
        self.second = second
        self.transform = transform
        self.inputsChanged = inputsChanged
    }

    /// `transform` of the cells' values.
    @inlinable
    func build() -> Output {
        transform((first.value, second.value))
    }

    /// The result when an input changed for the observers since the last emission, else nil.
    /// (`inputsChanged` is called where it is stored: bound to a local first, its context
    /// was retained around the call.)
    @inlinable
    func settled() -> Output? {
        guard inputsChanged?(first, second) ?? true else { return nil }
        return build()
    }
}

/// `PairCells` whose result is compared too (an `Equatable` map of the pair). The cells
/// are its own fields, not reached through a `PairCells`: a comparison read through
/// another object was retained around its call.
// Safe to share: all `let`s; the cells are touched only inside serialized deliveries.
@usableFromInline
final class ComparedPairCells<First: Sendable, Second: Sendable, Output: Sendable & Equatable>: @unchecked Sendable {
    @usableFromInline let first: Latest<First>
    @usableFromInline let second: Latest<Second>
    @usableFromInline let transform: ((First, Second)) -> Output
    @usableFromInline let inputsChanged: ((Latest<First>, Latest<Second>) -> Bool)?
    @usableFromInline let result: Latest<Output>

    @inlinable
    init(_ cells: PairCells<First, Second, Output>, _ result: Latest<Output>) {
        first = cells.first
        second = cells.second
        transform = cells.transform
        inputsChanged = cells.inputsChanged
        self.result = result
    }

    /// The result when an input and then the result changed since the last emission, else nil.
    @inlinable
    func settled() -> Output? {
        guard inputsChanged?(first, second) ?? true else { return nil }
        result.value = transform((first.value, second.value))
        return result.settleByEquality() ? result.value : nil
    }
}

extension Property {
    /// A property whose value is `transform` of this pair's, updated with every change.
    ///
    /// As `map` of any value; when this pair is a `combineLatest` of two properties, the
    /// result is one combination of them, with no property of the pair between.
    @inlinable
    public func map<First: Sendable, Second: Sendable, Output: Sendable>(
        _ transform: @escaping @Sendable ((First, Second)) -> Output
    ) -> Property<Output> where Value == (First, Second) {
        (node.pair as? CombinedPair)?.combined(transform, sources: sources) ?? mapped(transform, isEquivalent: nil)
    }

    /// A property whose value is `transform` of this pair's, notifying only real changes.
    ///
    /// As the `Equatable` `map` of any value; one combination of the inputs when this pair
    /// is a `combineLatest` of two properties.
    @inlinable
    public func map<First: Sendable, Second: Sendable, Output: Sendable & Equatable>(
        _ transform: @escaping @Sendable ((First, Second)) -> Output
    ) -> Property<Output> where Value == (First, Second) {
        (node.pair as? CombinedPair)?.combinedComparing(transform, sources: sources)
            ?? mapped(transform, isEquivalent: ==)
    }
}
