/// A hot, multicast stream of values that may complete.
///
/// Observers receive the values sent after they start observing, in the order they were
/// sent, one delivery at a time. After completion nothing more is delivered, and an
/// observer that arrives late gets the completion at once.
///
/// ```swift
/// let (taps, tap) = Signal<Int>.pipe()
/// let subscription = taps.map { $0 * 2 }.observe { print($0) }
/// tap.send(21)          // prints 42
/// tap.sendCompleted()
/// subscription.dispose()
/// ```
public final class Signal<Value>: @unchecked Sendable {
    @usableFromInline let core: SignalCore<Value>

    @inlinable
    init(core: SignalCore<Value>) {
        self.core = core
        core.retainOwner()
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

    /// Calls `action` with every value sent from now on.
    @inlinable @discardableResult
    public func observe(_ action: @escaping (Value) -> Void) -> Disposable {
        core.add(ClosureObserver(onValue: action, onCompleted: nil))
    }

    /// Calls `action` once when the signal completes (at once if it already has).
    @inlinable @discardableResult
    public func observeCompleted(_ action: @escaping () -> Void) -> Disposable {
        core.add(ClosureObserver(onValue: nil, onCompleted: action))
    }

    /// The sending side of a signal made by `Signal.pipe()`.
    ///
    /// Freeing the input completes its signal, so observers are released with it.
    public final class Input: @unchecked Sendable {
        @usableFromInline let core: SignalCore<Value>

        @usableFromInline
        init(core: SignalCore<Value>) {
            self.core = core
        }

        deinit {
            core.sendCompleted()
        }

        /// Delivers `value` to every observer; dropped after completion.
        ///
        /// Sending from inside an observer queues the value behind the current delivery.
        @inlinable
        public func send(_ value: Value) {
            core.send(value)
        }

        /// Completes the signal; later values are dropped.
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
    /// Makes a signal driven by `setup`, which subscribes the new core to its sources.
    @inlinable
    func derived<Output>(_ setup: (SignalCore<Output>) -> Void) -> Signal<Output> {
        let output = SignalCore<Output>()
        let signal = Signal<Output>(core: output)
        setup(output)
        return signal
    }

    /// Subscribes `output` to this signal with the given handlers, for operators.
    @inlinable
    func forward<Output>(
        to output: SignalCore<Output>,
        value: @escaping (Value) -> Void,
        completed: (() -> Void)? = nil,
        carryingPrefix: ((Value) -> Void)? = nil
    ) {
        core.forward(to: output, value: value, completed: completed, carryingPrefix: carryingPrefix)
    }
}
