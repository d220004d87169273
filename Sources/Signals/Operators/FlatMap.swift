/// How ``Signal/flatMap(_:_:)-(_,(Value)->Signal<Output>)`` runs the inner signals it makes.
///
/// The inner signals run all at once, one at a time, only the newest, or only the first.
/// A strategy is chosen per use; the names say what happens to a value that arrives while
/// inner work is still running.
public struct FlattenStrategy: Sendable, Equatable {
    @usableFromInline
    enum Kind: Equatable, Sendable {
        case latest
        case merge(limit: Int)
        case first
    }

    @usableFromInline let kind: Kind

    /// Runs every inner signal at once and forwards all their values (RxSwift's `flatMap`).
    public static let merge = FlattenStrategy(kind: .merge(limit: .max))

    /// Runs at most `limit` inner signals at once.
    ///
    /// Later values wait, in order, for a running one to complete.
    ///
    /// - Parameter limit: How many inner signals may run at once; below 1 is taken as 1.
    /// - Returns: The strategy; `merge(limit: 1)` is ``concat``.
    public static func merge(limit: Int) -> FlattenStrategy {
        FlattenStrategy(kind: .merge(limit: max(1, limit)))
    }

    /// Runs one inner signal at a time, in the order of the values.
    ///
    /// It is `merge(limit: 1)`.
    public static let concat = merge(limit: 1)

    /// Runs only the newest inner signal.
    ///
    /// A new value stops the running one, as in
    /// ``Signal/flatMapLatest(_:)-((Value)->Signal<Output>)``.
    public static let latest = FlattenStrategy(kind: .latest)

    /// Runs an inner signal only when none is running.
    ///
    /// Values that arrive meanwhile are dropped (RxSwift's `flatMapFirst`): the guard
    /// against a double-tapped submit button.
    public static let first = FlattenStrategy(kind: .first)
}

extension Signal {
    /// Maps each value to a signal and forwards the inner signals' values.
    ///
    /// The inner signals run as `strategy` says. The result completes when this signal has
    /// completed and no inner signal is running or waiting.
    ///
    /// `transform` runs when its inner signal is to start (for `.concat`, when the one
    /// before it completes), inside this operator's serialized deliveries. Values reach
    /// observers on the thread their inner signal sends them from. Once the result is
    /// released and its last observer has left (a view model that keeps the result keeps
    /// it going), every running inner signal is unsubscribed (its work stopped, if nothing
    /// else observes it) and waiting values are dropped.
    ///
    /// - Parameters:
    ///   - strategy: How inner signals run; without one, values are merged, as RxSwift's
    ///     and Combine's `flatMap` do.
    ///   - transform: Makes the inner signal of a value.
    ///
    /// ```swift
    /// let saves = taps.flatMap(.first) { form.save() }   // a double tap saves once
    /// ```
    @inlinable
    public func flatMap<Output: Sendable>(
        _ strategy: FlattenStrategy = .merge,
        _ transform: @escaping @Sendable (Value) -> Signal<Output>
    ) -> Signal<Output> {
        derived { output in
            let state = FlattenState(output: output, strategy: strategy.kind, transform: transform)
            output.addUpstream(state.running)
            let step = state.step
            forward(
                to: output, value: { output.serialize(.outer($0), step) },
                completed: { output.serialize(.outerCompleted, step) })
        }
    }

    /// Maps each value to a producer and forwards the values of its runs.
    ///
    /// The runs are started as `strategy` says (see
    /// ``flatMap(_:_:)-(_,(Value)->Signal<Output>)``).
    public func flatMap<Output: Sendable>(
        _ strategy: FlattenStrategy = .merge,
        _ transform: @escaping @Sendable (Value) -> Producer<Output, Never>
    ) -> Signal<Output> {
        flatMap(strategy) { transform($0).makeRun() }.successes()
    }

    /// Maps each value to a producer that may fail and forwards the results of its runs.
    ///
    /// The runs are started as `strategy` says. A failure arrives as a `.failure` value
    /// and ends that run only, so the stream goes on with the next value. Split the
    /// results with ``successes()`` and ``failures()``.
    public func flatMap<Output: Sendable, Failure: Error>(
        _ strategy: FlattenStrategy = .merge,
        _ transform: @escaping @Sendable (Value) -> Producer<Output, Failure>
    ) -> Signal<Result<Output, Failure>> {
        flatMap(strategy) { transform($0).makeRun() }
    }

    /// Maps each value to a producer and forwards the values of the newest run only.
    ///
    /// A new value stops the run before it: it is `flatMap(.latest, transform)`.
    ///
    /// ```swift
    /// let rows = queries.flatMapLatest { query in api.search(query).replaceError(with: []) }
    /// ```
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Producer<Output, Never>
    ) -> Signal<Output> {
        flatMap(.latest, transform)
    }

    /// Maps each value to a producer that may fail and forwards the newest run's results.
    ///
    /// A failure arrives as a `.failure` value; it is `flatMap(.latest, transform)`.
    public func flatMapLatest<Output: Sendable, Failure: Error>(
        _ transform: @escaping @Sendable (Value) -> Producer<Output, Failure>
    ) -> Signal<Result<Output, Failure>> {
        flatMap(.latest, transform)
    }
}

/// The state of one `flatMap`, touched only inside its output's serialized sections,
/// except `running`, which guards itself (it is disposed when the output detaches).
// Safe to share: see above. Inlinable, so that a client's merged values take a path
// specialized for its types (unspecialized, each one paid for runtime metadata lookups).
@usableFromInline
final class FlattenState<Value: Sendable, Output: Sendable>: @unchecked Sendable {
    @usableFromInline
    enum Step {
        case outer(Value)
        case outerCompleted
        case innerCompleted(Int)
    }

    /// The subscriptions to the running inner signals, by their number.
    @usableFromInline let running = InnerSubscriptions()
    @usableFromInline let output: SignalCore<Output>
    @usableFromInline let strategy: FlattenStrategy.Kind
    @usableFromInline let transform: @Sendable (Value) -> Signal<Output>
    /// Whether each running inner's values still count (`.latest` stops counting the one it
    /// leaves at once, before its subscription is gone), by number.
    @usableFromInline var active: [Int: StateCell<Bool>] = [:]
    @usableFromInline var waiting: [Value] = []
    @usableFromInline var waitingHead = 0
    @usableFromInline var nextID = 0
    @usableFromInline var outerDone = false

    @inlinable
    init(
        output: SignalCore<Output>, strategy: FlattenStrategy.Kind,
        transform: @escaping @Sendable (Value) -> Signal<Output>
    ) {
        self.output = output
        self.strategy = strategy
        self.transform = transform
    }

    @inlinable
    func step(_ event: Step) {
        switch event {
        case .outer(let value):
            switch strategy {
            case .latest:
                for (id, counts) in active {
                    counts.value = false
                    running.remove(id)
                }
                active.removeAll()
                start(value)
            case .first:
                if active.isEmpty { start(value) }
            case .merge(let limit):
                if active.count < limit { start(value) } else { waiting.append(value) }
            }
        case .outerCompleted:
            outerDone = true
        case .innerCompleted(let id):
            guard active.removeValue(forKey: id) != nil else { return }
            running.remove(id)
            if waitingHead < waiting.count {
                let next = waiting[waitingHead]
                waitingHead += 1
                if waitingHead == waiting.count {
                    waiting.removeAll(keepingCapacity: true)
                    waitingHead = 0
                } else if waitingHead >= 32, waitingHead * 2 >= waiting.count {
                    // Let go of the values already started, so a steady backlog holds
                    // only itself, not every value that ever waited.
                    waiting.removeFirst(waitingHead)
                    waitingHead = 0
                }
                start(next)
            }
        }
        if outerDone && active.isEmpty && waitingHead == waiting.count { output.emitCompleted() }
    }

    @inlinable
    func start(_ value: Value) {
        // The output may have detached while this step ran: start nothing for no one.
        guard !running.isDisposed else { return }
        nextID += 1
        let id = nextID
        let counts = StateCell(true)
        active[id] = counts
        let output = self.output
        // An inner value takes this path alone: no enum to wrap it and no lookup, so a
        // merged value costs one serialized section and a flag check.
        let deliver: (Output) -> Void = { value in if counts.value { output.emit(value) } }
        let subscription = transform(value).attach(
            value: { output.serialize($0, deliver) },
            completed: { output.serialize(.innerCompleted(id), self.step) })
        running.insert(subscription, as: id)
    }
}

/// The subscriptions of a `flatMap` to its running inner signals, disposed together when
/// its output detaches.
// Safe to share: `members` is touched only under `lock`.
@usableFromInline
final class InnerSubscriptions: Disposable, @unchecked Sendable {
    private let lock = SpinLock()
    private var members: [Int: Disposable]? = [:]

    @usableFromInline
    init() {}

    @usableFromInline
    var isDisposed: Bool { lock.withLock { members == nil } }

    /// Keeps `subscription` under `id`, or disposes it at once when this is disposed.
    @usableFromInline
    func insert(_ subscription: Disposable, as id: Int) {
        // Nil when there were no members to keep it with: this was disposed.
        let kept: Void? = lock.withLock { members?[id] = subscription }
        if kept == nil { subscription.dispose() }
    }

    /// Disposes and forgets the subscription kept under `id`.
    @usableFromInline
    func remove(_ id: Int) {
        let removed = lock.withLock { members?.removeValue(forKey: id) }
        removed?.dispose()
    }

    @usableFromInline
    func dispose() {
        // In the order they started, so what stops is predictable.
        lock.withLock { members.take() }?.sorted { $0.key < $1.key }.forEach { $0.value.dispose() }
    }
}
