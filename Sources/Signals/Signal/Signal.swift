/// A hot, multicast stream of values that may complete.
///
/// Observers receive the values sent after they start observing, in the order they were
/// sent, one delivery at a time. After completion nothing more is delivered, and an
/// observer that arrives late gets the completion at once (after the values a replaying
/// signal keeps, which wait for a delivery in progress; see "Lifetimes" in
/// <doc:Contract>).
///
/// ```swift
/// let (taps, tap) = Signal<Int>.pipe()
/// let subscription = taps.map { $0 * 2 }.observe { print($0) }
/// tap.send(21)          // prints 42
/// tap.sendCompleted()
/// subscription.dispose()
/// ```
///
/// Values cross threads, so they are `Sendable`. Observers added with ``observe(_:)`` run on
/// the thread that sends and must be `@Sendable`; observers added with
/// ``observeOnMainActor(_:)`` and bindings run on the main actor (see "Isolation" in
/// <doc:Contract>).
// Safe to share: the only stored state is the core, which guards its own (see `SignalCore`).
public final class Signal<Value: Sendable>: @unchecked Sendable {
    @usableFromInline let core: SignalCore<Value>

    @inlinable
    init(core: SignalCore<Value>) {
        self.core = core
        core.retainOwner()
    }

    /// A wrapper of `core`, which the caller has already counted as owned by it
    /// (`retainOwner(unlessDetached:)`).
    @usableFromInline
    init(owning core: SignalCore<Value>) {
        self.core = core
    }

    deinit {
        core.releaseOwner()
    }

    /// Creates a signal and the input that sends on it.
    ///
    /// The signal completes when `input.sendCompleted()` is called or the input is freed.
    @inlinable
    public static func pipe() -> (output: Signal<Value>, input: Input) {
        let core = SignalCore<Value>()
        return (Signal(core: core), Input(core: core))
    }

    /// Calls `action` with every value sent from now on, on the thread that sends it.
    ///
    /// `action` may run on any thread (one delivery at a time), so it is `@Sendable`: the
    /// compiler refuses captured mutable state that is not safe to share. To update UI
    /// state, use `observeOnMainActor(_:)` or `bind(to:_:)`.
    @inlinable @discardableResult
    public func observe(_ action: @escaping @Sendable (Value) -> Void) -> Disposable {
        core.add(ClosureObserver(onValue: action, onCompleted: nil))
    }

    /// Calls `action` with every value sent from now on, on the main actor.
    ///
    /// A value sent on the main actor is delivered synchronously, before `send` returns,
    /// unless earlier values for this observer are still queued; a value sent on another
    /// thread is queued to the main actor. Either way `action` gets every value, in the
    /// order they were sent, one at a time.
    ///
    /// ```swift
    /// titles.observeOnMainActor { title in header.text = title }   // header is @MainActor
    /// ```
    @discardableResult
    public func observeOnMainActor(_ action: @escaping @MainActor (Value) -> Void) -> Disposable {
        core.add(MainActorObserver(extract: { $0 }, action))
    }

    /// Calls `action` once when the signal completes, on the thread that completes it.
    ///
    /// When the signal has already completed, `action` runs at once; when its completion
    /// was sent but waits behind a delivery in progress, `action` runs in its turn.
    @inlinable @discardableResult
    public func observeCompleted(_ action: @escaping @Sendable () -> Void) -> Disposable {
        core.add(ClosureObserver(onValue: nil, onCompleted: action))
    }

    /// A signal driven by work that starts at the first observer and stops when nobody listens.
    ///
    /// `start` runs once, on the thread of the first `observe` (after that observer is
    /// registered, so it misses nothing the work sends), and gets the input to send on.
    /// Operators start when they are first observed, not when they are built, so this
    /// holds for an observer at the end of any chain: `work.map(f).observe(on: queue)
    /// .observe(show)` gets what the work sends at once. `start`
    /// returns a disposable that stops the work. That disposable is disposed once: when the
    /// signal completes, or once the returned signal is released and its last observer has
    /// left. `flatMapLatest` over such signals stops the work it switches away from.
    ///
    /// The work must keep `input` for as long as it may send: freeing the input completes
    /// the signal, which stops the work at once. See "Lifetimes" in <doc:Contract>.
    ///
    /// - Parameter start: Starts the work with the input to send on and returns a
    ///   disposable that stops it.
    ///
    /// ```swift
    /// let results = Signal<Page> { input in
    ///     let request = api.load { page in input.send(page); input.sendCompleted() }
    ///     return AnyDisposable { request.cancel() }
    /// }
    /// ```
    public convenience init(_ start: @escaping @Sendable (Input) -> Disposable) {
        let core = SignalCore<Value>()
        self.init(core: core)
        core.onStart { [unowned core] in core.addUpstream(start(Input(core: core))) }
    }

    /// A signal of the values `operation` sends from a task started at the first observer.
    ///
    /// The signal completes when `operation` returns, and the task is cancelled once nobody
    /// listens any more (as with `init(_:)`).
    ///
    /// The task is an ordinary `Task`: in a test on a `TestScheduler` whose `clock` the
    /// operation sleeps on, `clock.waitForSleepers()` tells when it has reached its sleep,
    /// before the test advances past it (see "Testing async work" in SignalsTesting).
    ///
    /// ```swift
    /// let page = Signal<Page>.task { input in
    ///     if let page = try? await api.page(1) { input.send(page) }
    /// }
    /// ```
    public static func task(
        _ operation: @escaping @Sendable (Input) async -> Void
    ) -> Signal<Value> {
        Signal { input in
            let task = Task {
                await operation(input)
                input.sendCompleted()
            }
            return AnyDisposable { task.cancel() }
        }
    }

    /// The sending side of a signal made by `Signal.pipe()`.
    ///
    /// Freeing the input completes its signal, so observers are released with it.
    // Safe to share: its only stored state is the core, which guards its own.
    public final class Input: @unchecked Sendable {
        @usableFromInline let core: SignalCore<Value>

        @usableFromInline
        init(core: SignalCore<Value>) {
            self.core = core
        }

        deinit {
            core.sendCompleted()
        }

        /// Delivers `value` to every observer.
        ///
        /// A value sent after completion is dropped. Sending from inside an observer
        /// queues the value behind the current delivery.
        @inlinable
        public func send(_ value: Value) {
            core.send(value)
        }

        /// Completes the signal.
        ///
        /// Values sent later are dropped.
        public func sendCompleted() {
            core.sendCompleted()
        }
    }
}

extension Signal.Input where Value == Void {
    /// Sends `()`.
    public func send() {
        core.send(())
    }
}

extension Signal {
    /// Registers an operator's observer of this signal, which stays alive for the call:
    /// a signal released as soon as its core is read (a temporary, as in
    /// `transform(value).core.add(...)`) would let its unstarted work go before the
    /// observer arrives.
    @inlinable
    func attach(value: @escaping (Value) -> Void, completed: @escaping () -> Void) -> Disposable {
        core.add(ForwardObserver(onValue: value, onCompleted: completed))
    }

    /// Makes a signal driven by `setup`, which subscribes the new core to its sources.
    @inlinable
    func derived<Output: Sendable>(_ setup: (SignalCore<Output>) -> Void) -> Signal<Output> {
        let output = SignalCore<Output>()
        let signal = Signal<Output>(core: output)
        setup(output)
        return signal
    }

    /// Makes a signal that delivers inside this signal's deliveries, for operators with
    /// this one source: `setup` subscribes the new core, which must be sent to only with
    /// `sendInDelivery`, from the values this signal delivers.
    @inlinable
    func derivedInDelivery<Output: Sendable>(_ setup: (SignalCore<Output>) -> Void) -> Signal<Output> {
        let output = SignalCore<Output>(sharingDeliveryOf: core)
        let signal = Signal<Output>(core: output)
        setup(output)
        return signal
    }

    /// For an operator that delivers in line (`map`, `filter`, `compactMap`, `scan`): when
    /// this signal replays (`share(replay:)`, or such an operator behind one), `output`
    /// replays too, the same number of the values it delivers itself, so that a late
    /// observer of a shared chain gets the replay through the chain (contract V.8a).
    /// Returns that buffer, which the operator fills inside its deliveries; nil otherwise.
    @inlinable
    func carriedReplay<Output>(into output: SignalCore<Output>) -> ReplayBuffer<Output>? {
        // Set once, before this core was handed out (see `SignalCore.replay`).
        guard let source = core.replay else { return nil }
        let buffer = ReplayBuffer<Output>(limit: source.limit)
        output.replay = buffer
        return buffer
    }

    /// Subscribes `output` to this signal with the given handlers, for operators, when
    /// `output` gets its first observer: work behind the chain then starts only once the
    /// observer at its end is registered, so it misses nothing the work sends at once.
    ///
    /// A prefix is carried (`carryingPrefix`) now, so the first observer of `output` gets
    /// it. Until `output` starts, this signal is kept, so its sources stay subscribed.
    @inlinable
    func forward<Output>(
        to output: SignalCore<Output>,
        value: @escaping (Value) -> Void,
        completed: (() -> Void)? = nil,
        carryingPrefix: ((Value) -> Void)? = nil
    ) {
        if let carryingPrefix, let prefix = core.prefix { carryingPrefix(prefix) }
        let skippingPrefix = carryingPrefix != nil
        output.onStart { [self] in
            core.subscribe(output, value: value, completed: completed, skippingPrefix: skippingPrefix)
        }
    }
}
