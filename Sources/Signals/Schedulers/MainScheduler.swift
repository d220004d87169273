import Dispatch
import Synchronization

/// Runs actions on the main actor, in the order they were scheduled.
///
/// An action scheduled on the main actor while nothing this scheduler queued is waiting
/// runs at once; any other is queued to the main queue (FIFO). Timing operators deliver
/// every event through it, so a value sent from a background thread reaches the main
/// actor.
///
/// ```swift
/// queries.throttle(.milliseconds(300), on: MainScheduler()).observeOnMainActor { show($0) }
/// ```
public final class MainScheduler: Scheduler {
    private let start = ContinuousClock.now
    /// Actions queued or running; an action runs at once only when this is zero.
    private let queued = Atomic<Int>(0)

    /// Creates a scheduler for the main actor.
    public init() {}

    /// Time since the scheduler was created, on the continuous clock.
    public var now: Duration { ContinuousClock.now - start }

    /// Runs `action` on the main actor, after everything this scheduler queued before it.
    ///
    /// Called on the main actor with nothing queued, the action runs at once.
    @discardableResult
    public func schedule(_ action: @escaping @Sendable () -> Void) -> Disposable {
        let task = ScheduledAction(action)
        if MainQueue.isCurrent,
            queued.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
        {
            run(task)
        } else {
            queued.add(1, ordering: .acquiringAndReleasing)
            DispatchQueue.main.async { self.run(task) }
        }
        return task
    }

    /// Runs `action` on the main actor once `delay` has passed.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Disposable {
        let task = ScheduledAction(action)
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(QueueScheduler.nanoseconds(in: delay))) {
            self.schedule { task.run() }
        }
        return task
    }

    private func run(_ task: ScheduledAction) {
        defer { queued.subtract(1, ordering: .acquiringAndReleasing) }
        task.run()
    }
}

extension MainScheduler {
    /// Runs `work` on the main actor: at once when called on the main actor, otherwise
    /// queued to the main queue behind what is queued there already.
    ///
    /// The compiler checks `work` as main-actor code. It is how code that may be called
    /// on any thread (a producer's start, a disposable) reaches main-actor state without
    /// assuming an isolation itself; the one check of where it runs is the one
    /// ``Signal/observeOnMainActor(_:)`` makes (<doc:Contract>, 6.4).
    ///
    /// ```swift
    /// let next = Producer<Int, Never> { input in
    ///     MainScheduler.perform { input.send(counter.next()) }   // counter is @MainActor
    ///     return AnyDisposable {}
    /// }
    /// ```
    public static func perform(_ work: @escaping @MainActor () -> Void) {
        MainActorObserver<Void, Void>(extract: { $0 }, { _ in work() }).receive(())
    }
}
