/// How ``Signal/flatMap(_:_:)-(_,(Value)->Signal<Output>)`` runs the inner signals it makes
/// from each value: all at once, one at a time, only the newest, or only the first.
///
/// A strategy is chosen per use; the names say what happens to a value that arrives while
/// inner work is still running.
public struct FlattenStrategy: Sendable, Equatable {
    enum Kind: Equatable {
        case latest
        case merge(limit: Int)
        case first
    }

    let kind: Kind

    /// Runs every inner signal at once and forwards all their values (RxSwift's `flatMap`).
    public static let merge = FlattenStrategy(kind: .merge(limit: .max))

    /// Runs at most `limit` inner signals at once; later values wait, in order, for a
    /// running one to complete. A `limit` below 1 is taken as 1.
    public static func merge(limit: Int) -> FlattenStrategy {
        FlattenStrategy(kind: .merge(limit: max(1, limit)))
    }

    /// Runs one inner signal at a time, in the order of the values (`merge(limit: 1)`).
    public static let concat = merge(limit: 1)

    /// Runs only the newest inner signal: a new value stops the running one
    /// (``Signal/flatMapLatest(_:)-((Value)->Signal<Output>)``).
    public static let latest = FlattenStrategy(kind: .latest)

    /// Runs an inner signal only when none is running: values that arrive meanwhile are
    /// dropped (RxSwift's `flatMapFirst`), the guard against a double-tapped submit button.
    public static let first = FlattenStrategy(kind: .first)
}

extension Signal {
    /// Maps each value to a signal and forwards the values of the inner signals, run as
    /// `strategy` says. Completes when this signal has completed and no inner signal is
    /// running or waiting.
    ///
    /// `transform` runs when its inner signal is to start (for `.concat`, when the one
    /// before it completes), inside this operator's serialized deliveries. Values reach
    /// observers on the thread their inner signal sends them from. When the result's last
    /// observer leaves, every running inner signal is unsubscribed (its work stopped, if
    /// nothing else observes it) and waiting values are dropped.
    ///
    /// ```swift
    /// let saves = taps.flatMap(.first) { form.save() }   // a double tap saves once
    /// ```
    public func flatMap<Output: Sendable>(
        _ strategy: FlattenStrategy,
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

    /// Maps each value to a producer and forwards the values of its runs, run as
    /// `strategy` says (see ``flatMap(_:_:)-(_,(Value)->Signal<Output>)``).
    public func flatMap<Output: Sendable>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Producer<Output, Never>
    ) -> Signal<Output> {
        flatMap(strategy) { transform($0).makeRun() }.successes()
    }

    /// Maps each value to a producer that may fail and forwards the results of its runs,
    /// run as `strategy` says: a failure arrives as a `.failure` value and ends that run
    /// only, so the stream goes on with the next value. Split the results with
    /// ``successes()`` and ``failures()``.
    public func flatMap<Output: Sendable, Failure: Error>(
        _ strategy: FlattenStrategy,
        _ transform: @escaping @Sendable (Value) -> Producer<Output, Failure>
    ) -> Signal<Result<Output, Failure>> {
        flatMap(strategy) { transform($0).makeRun() }
    }

    /// Maps each value to a producer and forwards the values of the newest run only; a new
    /// value stops the run before it (`flatMap(.latest, transform)`).
    ///
    /// ```swift
    /// let rows = queries.flatMapLatest { query in api.search(query).replaceError(with: []) }
    /// ```
    public func flatMapLatest<Output: Sendable>(
        _ transform: @escaping @Sendable (Value) -> Producer<Output, Never>
    ) -> Signal<Output> {
        flatMap(.latest, transform)
    }

    /// Maps each value to a producer that may fail and forwards the results of the newest
    /// run only, a failure as a `.failure` value (`flatMap(.latest, transform)`).
    public func flatMapLatest<Output: Sendable, Failure: Error>(
        _ transform: @escaping @Sendable (Value) -> Producer<Output, Failure>
    ) -> Signal<Result<Output, Failure>> {
        flatMap(.latest, transform)
    }
}

/// The state of one `flatMap`, touched only inside its output's serialized sections,
/// except `running`, which guards itself (it is disposed when the output detaches).
// Safe to share: see above.
private final class FlattenState<Value: Sendable, Output: Sendable>: @unchecked Sendable {
    enum Step {
        case outer(Value)
        case outerCompleted
        case inner(Int, Output)
        case innerCompleted(Int)
    }

    /// The subscriptions to the running inner signals, by their number.
    let running = InnerSubscriptions()
    private let output: SignalCore<Output>
    private let strategy: FlattenStrategy.Kind
    private let transform: @Sendable (Value) -> Signal<Output>
    private var active: Set<Int> = []
    private var waiting: [Value] = []
    private var waitingHead = 0
    private var nextID = 0
    private var outerDone = false

    init(
        output: SignalCore<Output>, strategy: FlattenStrategy.Kind,
        transform: @escaping @Sendable (Value) -> Signal<Output>
    ) {
        self.output = output
        self.strategy = strategy
        self.transform = transform
    }

    func step(_ event: Step) {
        switch event {
        case .outer(let value):
            switch strategy {
            case .latest:
                for id in active { running.remove(id) }
                active.removeAll()
                start(value)
            case .first:
                if active.isEmpty { start(value) }
            case .merge(let limit):
                if active.count < limit { start(value) } else { waiting.append(value) }
            }
        case .outerCompleted:
            outerDone = true
        case .inner(let id, let value):
            if active.contains(id) { output.emit(value) }
            return
        case .innerCompleted(let id):
            guard active.remove(id) != nil else { return }
            running.remove(id)
            if waitingHead < waiting.count {
                let next = waiting[waitingHead]
                waitingHead += 1
                if waitingHead == waiting.count {
                    waiting.removeAll(keepingCapacity: true)
                    waitingHead = 0
                }
                start(next)
            }
        }
        if outerDone && active.isEmpty && waitingHead == waiting.count { output.emitCompleted() }
    }

    private func start(_ value: Value) {
        nextID += 1
        let id = nextID
        active.insert(id)
        let output = self.output
        let signal = transform(value)
        let subscription = signal.attach(
            value: { output.serialize(.inner(id, $0), self.step) },
            completed: { output.serialize(.innerCompleted(id), self.step) })
        running.insert(subscription, as: id)
    }
}

/// The subscriptions of a `flatMap` to its running inner signals, disposed together when
/// its output detaches.
// Safe to share: `members` is touched only under `lock`.
private final class InnerSubscriptions: Disposable, @unchecked Sendable {
    private let lock = SpinLock()
    private var members: [Int: Disposable]? = [:]

    var isDisposed: Bool { lock.withLock { members == nil } }

    /// Keeps `subscription` under `id`, or disposes it at once when this is disposed.
    func insert(_ subscription: Disposable, as id: Int) {
        let kept = lock.withLock { () -> Bool in
            guard members != nil else { return false }
            members?[id] = subscription
            return true
        }
        if !kept { subscription.dispose() }
    }

    /// Disposes and forgets the subscription kept under `id`.
    func remove(_ id: Int) {
        let removed = lock.withLock { members?.removeValue(forKey: id) }
        removed?.dispose()
    }

    func dispose() {
        let taken = lock.withLock { () -> [Int: Disposable]? in
            defer { members = nil }
            return members
        }
        // In the order they started, so what stops is predictable.
        taken?.sorted { $0.key < $1.key }.forEach { $0.value.dispose() }
    }
}
