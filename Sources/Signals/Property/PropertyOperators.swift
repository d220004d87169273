extension Property {
    /// A property whose value is `transform` of this one's, updated with every change.
    ///
    /// `transform` runs once per change and on each read of `value`.
    public func map<Output>(_ transform: @escaping (Value) -> Output) -> Property<Output> {
        let source = node
        let derived = PropertyNode<Output>(read: { transform(source.read()) })
        let output = derived.core
        source.core.forward(to: output, value: { change in
            switch change {
            case .invalidate: output.send(.invalidate, committing: true)
            case .changed(let value): output.send(.changed(transform(value)), committing: true)
            case .unchanged: output.send(.unchanged, committing: true)
            }
        })
        return Property<Output>(node: derived, sources: [self])
    }

    /// A property with the same value that notifies only when `isEquivalent` says the
    /// new value differs from the last one it notified.
    public func skipRepeats(_ isEquivalent: @escaping (Value, Value) -> Bool) -> Property<Value> {
        let source = node
        let derived = PropertyNode<Value>(read: source.read)
        let output = derived.core
        let last = StateCell(source.read())
        source.core.forward(to: output, value: { change in
            switch change {
            case .invalidate:
                output.send(.invalidate, committing: true)
            case .changed(let value):
                if isEquivalent(last.value, value) {
                    output.send(.unchanged, committing: true)
                } else {
                    last.value = value
                    output.send(.changed(value), committing: true)
                }
            case .unchanged:
                output.send(.unchanged, committing: true)
            }
        })
        return Property(node: derived, sources: [self])
    }

    /// A property of the latest values of `first` and `second` as a pair.
    ///
    /// One change of a source shared by both inputs produces one emission, never an
    /// intermediate pair. Completes when both inputs have completed.
    public static func combineLatest<Other>(
        _ first: Property<Value>,
        _ second: Property<Other>
    ) -> Property<(Value, Other)> {
        let left = first.node
        let right = second.node
        let derived = PropertyNode<(Value, Other)>(read: { (left.read(), right.read()) })
        let output = derived.core
        let state = StateCell(CombineState(latest: (left.read(), right.read())))
        let step: (Either<Change<Value>, Change<Other>>) -> Void = { event in
            state.value.step(event, output: output)
        }
        left.core.forward(to: output, value: { output.serialize(.left($0), step) },
                          completed: { output.serialize(.leftCompleted, step) })
        right.core.forward(to: output, value: { output.serialize(.right($0), step) },
                           completed: { output.serialize(.rightCompleted, step) })
        return Property<(Value, Other)>(node: derived, sources: [first, second])
    }
}

extension Property where Value: Equatable {
    /// A property with the same value that notifies only when the value actually changes.
    public func skipRepeats() -> Property<Value> {
        skipRepeats(==)
    }
}

/// The bookkeeping of `Property.combineLatest`: how many inputs are invalidated and not
/// settled yet, and whether any of them changed.
struct CombineState<First, Second> {
    var latest: (First, Second)
    var unsettled = 0
    var isChanged = false
    var completions = 0

    mutating func step(
        _ event: Either<Change<First>, Change<Second>>,
        output: SignalCore<Change<(First, Second)>>
    ) {
        switch event {
        case .left(.invalidate), .right(.invalidate):
            unsettled += 1
            if unsettled == 1 { output.emit(.invalidate) }
            return
        case .left(.changed(let value)):
            latest.0 = value
            isChanged = true
        case .right(.changed(let value)):
            latest.1 = value
            isChanged = true
        case .left(.unchanged), .right(.unchanged):
            break
        case .leftCompleted, .rightCompleted:
            completions += 1
            if completions == 2 { output.emitCompleted() }
            return
        }
        if unsettled == 0 {
            // A change without its invalidation (an input attached mid-change): treat it
            // as a change of its own.
            output.emit(.invalidate)
        } else {
            unsettled -= 1
            guard unsettled == 0 else { return }
        }
        let change: Change<(First, Second)> = isChanged ? .changed(latest) : .unchanged
        isChanged = false
        output.emitCommitting(change)
    }
}
