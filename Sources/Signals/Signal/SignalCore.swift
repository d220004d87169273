/// The machinery behind every `Signal`: an observer list and a serial delivery queue.
///
/// Deliveries never overlap: the first sender delivers; a sender that finds a delivery in
/// progress (another thread's, or its own when sending from inside an observer) queues
/// its work, and the delivering thread runs it next, in FIFO order. Nothing blocks on a
/// delivery and no lock is held while user code runs.
final class SignalCore<Value>: @unchecked Sendable {
    private struct Pending {
        let work: () -> Void
        let observers: ContiguousArray<Observer<Value>>
    }

    private let lock = SpinLock()
    // Guarded by `lock`.
    private var observers: ContiguousArray<Observer<Value>> = []
    private var pending: ContiguousArray<Pending> = []
    private var pendingHead = 0
    private var retired: ContiguousArray<Observer<Value>> = []
    private var isDelivering = false
    private var isTerminating = false
    private var ownerCount = 0
    private var isDetached = false
    private var upstreams: ContiguousArray<Disposable> = []
    // Touched only by the delivering thread.
    private var snapshot: ContiguousArray<Observer<Value>> = []
    private var isFinished = false

    /// A value handed to each new observer before anything else (`prefix(value:)`).
    var prefix: Value?
    /// Sees every value just before it is delivered; set before the core is shared.
    var willEmit: ((Value) -> Void)?

    init() {}

    // MARK: - Registration

    /// Registers `observer`. `initial` runs for this observer alone, in delivery order,
    /// before any value sent after this call.
    @discardableResult
    func add(_ observer: Observer<Value>, initial: (() -> Value)? = nil) -> Observer<Value> {
        let initial = initial ?? prefix.map { value in { value } }
        lock.lock()
        if isTerminating {
            lock.unlock()
            if let initial { observer.onValue?(initial()) }
            if observer.claimDisposal() {
                observer.onCompleted?()
                observer.clear()
            }
            return observer
        }
        observers.append(observer)
        observer.core = self
        guard let initial else {
            lock.unlock()
            return observer
        }
        if isDelivering {
            pending.append(Pending(work: { [unowned observer] in
                if !observer.isDisposed { observer.onValue?(initial()) }
            }, observers: []))
            lock.unlock()
            return observer
        }
        isDelivering = true
        lock.unlock()
        if !observer.isDisposed { observer.onValue?(initial()) }
        leave()
        return observer
    }

    /// Removes a disposed observer; its closures are freed now or when the delivery ends.
    func remove(_ observer: Observer<Value>) {
        lock.lock()
        if let index = observers.firstIndex(where: { $0 === observer }) {
            observers.remove(at: index)
        }
        let delivering = isDelivering
        if delivering { retired.append(observer) }
        let detach = takeUpstreamsIfUnused()
        lock.unlock()
        if !delivering { observer.clear() }
        detach?.forEach { $0.dispose() }
    }

    /// Keeps `disposable` (a subscription to a source) until this core detaches.
    func addUpstream(_ disposable: Disposable) {
        lock.lock()
        let detached = isDetached
        if !detached { upstreams.append(disposable) }
        lock.unlock()
        if detached { disposable.dispose() }
    }

    /// A public wrapper (a `Signal` or `Property`) now refers to this core.
    func retainOwner() {
        lock.withLock { ownerCount += 1 }
    }

    /// A public wrapper went away; with no observers left the core stops listening upstream.
    func releaseOwner() {
        lock.lock()
        ownerCount -= 1
        let detach = takeUpstreamsIfUnused()
        lock.unlock()
        detach?.forEach { $0.dispose() }
    }

    private func takeUpstreamsIfUnused() -> ContiguousArray<Disposable>? {
        guard ownerCount <= 0, observers.isEmpty, !isDetached else { return nil }
        isDetached = true
        defer { upstreams = [] }
        return upstreams
    }

    /// Subscribes `output` to this core: `output` stops listening when it detaches or completes.
    func forward<Output>(
        to output: SignalCore<Output>,
        value: @escaping (Value) -> Void,
        completed: (() -> Void)? = nil
    ) {
        let observer = Observer<Value>(onValue: value, onCompleted: completed ?? { output.sendCompleted() })
        output.addUpstream(add(observer))
    }

    /// Runs `body` holding the lock that `send(_:)` holds while it stores state.
    @inline(__always)
    func withLock<Result>(_ body: () -> Result) -> Result {
        lock.withLock(body)
    }

    // MARK: - Sending

    /// Sends `value` to every current observer.
    @inline(__always)
    func send(_ value: Value) {
        lock.lock()
        if isTerminating {
            lock.unlock()
            return
        }
        if isDelivering {
            enqueue(value)
            lock.unlock()
            return
        }
        isDelivering = true
        snapshot = observers
        lock.unlock()
        emit(value)
        leave()
    }

    /// Queues `value` behind the delivery in progress. Called with the lock held.
    @inline(never)
    private func enqueue(_ value: Value) {
        pending.append(Pending(work: { [self] in emit(value) }, observers: observers))
    }

    /// Sends the two events `make` returns, computed while holding the lock so that state
    /// stored by `make` and the order of deliveries agree.
    func send(_ make: () -> (Value, Value)) {
        lock.lock()
        if isTerminating {
            lock.unlock()
            return
        }
        let (first, second) = make()
        if isDelivering {
            pending.append(Pending(work: { [self] in
                emit(first)
                emit(second)
            }, observers: observers))
            lock.unlock()
            return
        }
        isDelivering = true
        snapshot = observers
        lock.unlock()
        emit(first)
        emit(second)
        leave()
    }

    /// Completes: observers get `onCompleted` once, then are released; later sends are dropped.
    func sendCompleted() {
        lock.lock()
        if isTerminating {
            lock.unlock()
            return
        }
        isTerminating = true
        if isDelivering {
            pending.append(Pending(work: { [self] in emitCompleted() }, observers: observers))
            lock.unlock()
            return
        }
        isDelivering = true
        snapshot = observers
        lock.unlock()
        emitCompleted()
        leave()
    }

    /// Runs `body(input)` serialized with every delivery of this core, so operator state
    /// touched by `body` needs no lock of its own; `body` delivers with `emit`.
    @inline(__always)
    func serialize<Input>(_ input: Input, _ body: @escaping (Input) -> Void) {
        lock.lock()
        if isTerminating {
            lock.unlock()
            return
        }
        if isDelivering {
            pending.append(Pending(work: { body(input) }, observers: observers))
            lock.unlock()
            return
        }
        isDelivering = true
        snapshot = observers
        lock.unlock()
        body(input)
        leave()
    }

    // MARK: - Delivering (only inside a serialized section)

    /// Delivers `value` to the observers registered when the current work was sent.
    @inline(__always)
    func emit(_ value: Value) {
        guard !isFinished else { return }
        willEmit?(value)
        for observer in snapshot where !observer.isDisposed {
            observer.onValue?(value)
        }
    }

    /// Delivers completion, then releases every observer and the upstream subscriptions.
    func emitCompleted() {
        guard !isFinished else { return }
        isFinished = true
        for observer in snapshot where !observer.isDisposed {
            observer.onCompleted?()
        }
        lock.lock()
        isTerminating = true
        let finished = observers
        observers = []
        isDetached = true
        let sources = upstreams
        upstreams = []
        lock.unlock()
        for observer in finished where observer.claimDisposal() {
            observer.core = nil
            observer.clear()
        }
        sources.forEach { $0.dispose() }
    }

    private func leave() {
        while true {
            lock.lock()
            if pendingHead < pending.count {
                let next = pending[pendingHead]
                pendingHead += 1
                snapshot = next.observers
                lock.unlock()
                next.work()
                continue
            }
            isDelivering = false
            let done = (pending, retired, snapshot)
            if !pending.isEmpty { pending = [] }
            pendingHead = 0
            if !retired.isEmpty { retired = [] }
            snapshot = []
            lock.unlock()
            for observer in done.1 { observer.clear() }
            withExtendedLifetime(done) {}
            return
        }
    }
}
