extension Property {
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
        combinedList(properties, equality: nil)
    }

    /// A property of the values of all `properties`, in their order, as one array.
    ///
    /// With `Equatable` inputs it notifies only when the array actually changes.
    public static func combineLatest(_ properties: [Property<Value>]) -> Property<[Value]> where Value: Equatable {
        combinedList(properties, equality: { ($0 as? Value) == ($1 as? Value) })
    }

    private static func combinedList(_ properties: [Property<Value>], equality: Equality?) -> Property<[Value]> {
        guard !properties.isEmpty else { return Property<[Value]>(value: []) }
        let nodes = properties.map(\.node)
        let isFedBySignal = nodes.contains { $0.isFedBySignal }
        let derived = PropertyNode<[Value]>(isFedBySignal: isFedBySignal, read: { nodes.map { $0.read() } })
        let output = derived.core
        let build: ([any Sendable]) -> [Value] = { values in values.compactMap { $0 as? Value } }
        let state = StateCell(
            CombineState(
                latest: nodes.map { $0.read() },
                equalities: equality.map { Array(repeating: $0, count: nodes.count) }))
        state.value.inputs = nodes.count
        state.value.isFedBySignal = isFedBySignal
        let step = CombineState.stepping(state, build: build, output: output)
        for (index, node) in nodes.enumerated() {
            CombineState.attach(node.core, at: index, to: output, step: step)
        }
        return Property<[Value]>(node: derived, sources: properties)
    }
}
