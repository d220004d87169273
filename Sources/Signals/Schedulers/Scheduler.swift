/// Decides when and where work runs: at once, on a dispatch queue, or in virtual time.
///
/// Timing operators (`debounce`, `throttle`, `delay`, `observe(on:)`) take one, so tests
/// can drive them with a `TestScheduler`.
public protocol Scheduler: AnyObject, Sendable {
    /// The time elapsed on this scheduler's clock since it was created.
    var now: Duration { get }

    /// Runs `action` as soon as possible, after any action scheduled before it.
    @discardableResult
    func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable

    /// Runs `action` once `delay` has passed; disposing the result cancels it.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable
}

/// Runs every action at once, on the calling thread.
///
/// Delays are treated as zero, which turns timing operators into pass-throughs, except
/// `Producer.timeout`, which then fails every run that does not end at once.
public final class ImmediateScheduler: Scheduler {
    private let start = ContinuousClock.now

    /// Creates an immediate scheduler.
    public init() {}

    /// Time since the scheduler was created, on the continuous clock.
    public var now: Duration { ContinuousClock.now - start }

    /// Runs `action` now.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        action()
        return DisposedDisposable.shared
    }

    /// Runs `action` now, ignoring the delay.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        schedule(action)
    }
}
