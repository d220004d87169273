extension Signal {
    /// Delivers every value and the completion on `scheduler`, in order.
    ///
    /// Deliveries already scheduled still run after the last observer leaves; they reach
    /// no one.
    ///
    /// On a ``MainScheduler`` the overload that returns a ``MainActorSignal`` is chosen
    /// wherever it fits (this one is disfavoured), so `observe { }` after it takes a
    /// `@MainActor` closure; where only a ``Signal`` fits (`.map` after it), this one is.
    @_disfavoredOverload
    public func observe(on scheduler: Scheduler) -> Signal<Value> {
        delivered(on: scheduler)
    }

    /// `observe(on:)` for any scheduler, ``MainScheduler`` included.
    func delivered(on scheduler: any Scheduler) -> Signal<Value> {
        derived { output in
            forward(
                to: output, value: { value in scheduler.schedule { output.send(value) } },
                completed: { scheduler.schedule { output.sendCompleted() } })
        }
    }

    /// Delivers every value and the completion `interval` later, on `scheduler`.
    ///
    /// Deliveries already scheduled still run after the last observer leaves; they reach
    /// no one.
    public func delay(_ interval: Duration, on scheduler: Scheduler) -> Signal<Value> {
        derived { output in
            forward(
                to: output, value: { value in scheduler.schedule(after: interval) { output.send(value) } },
                completed: { scheduler.schedule(after: interval) { output.sendCompleted() } })
        }
    }

    /// Emits a value once the source has been quiet for `interval` (trailing edge).
    ///
    /// Each new value restarts the timer and replaces the waiting one. On completion a
    /// waiting value is emitted, then the completion. Every event is delivered on
    /// `scheduler`.
    public func debounce(_ interval: Duration, on scheduler: Scheduler) -> Signal<Value> {
        timed(TimingState(interval: interval, scheduler: scheduler, leading: false))
    }

    /// Emits at most one value per `interval`.
    ///
    /// The first value goes without delay, then the latest value received during the
    /// interval when it ends. On completion a waiting value is emitted, then the
    /// completion. Every event is delivered on `scheduler`, the first value too:
    /// synchronously only when the scheduler runs actions at once (an
    /// ``ImmediateScheduler``); a `TestScheduler` delivers it on its next `advance`.
    public func throttle(_ interval: Duration, on scheduler: Scheduler) -> Signal<Value> {
        timed(TimingState(interval: interval, scheduler: scheduler, leading: true))
    }

    private func timed(_ state: TimingState<Value>) -> Signal<Value> {
        derived { output in
            state.output = output
            output.addUpstream(state.timer)
            forward(to: output, value: { state.receive($0) }, completed: { state.complete() })
        }
    }
}

/// The state of one `debounce` or `throttle`. A pending timer refers back to it until it
/// fires or is disposed.
///
/// Events from the source only change the state, under `lock`, and schedule actions;
/// everything the output emits is sent from an action on the scheduler (a timer firing, or
/// a delivery scheduled at once), so observers always run where the scheduler runs
/// actions. (The state cannot be guarded by the output's own serialization: a thread that
/// finds a delivery in progress hands its work to the delivering thread, so the source's
/// thread would end up emitting what the scheduler's thread scheduled.)
///
/// No lock is held while scheduling: ``ImmediateScheduler`` runs actions inside `schedule`.
// Safe to share: the mutable state is touched only under `lock`; `output` is set once,
// before the source is subscribed.
private final class TimingState<Value: Sendable>: @unchecked Sendable {
    let timer = SerialDisposable()
    var output: SignalCore<Value>!
    private let interval: Duration
    private let scheduler: Scheduler
    /// Throttle emits at the start of a window; debounce only when a timer fires.
    private let leading: Bool
    private let lock = SpinLock()
    // Guarded by `lock`.
    private var waiting: Value?
    private var generation = 0
    private var isWindowOpen = false

    init(interval: Duration, scheduler: Scheduler, leading: Bool) {
        self.interval = interval
        self.scheduler = scheduler
        self.leading = leading
    }

    /// A value from the source (source deliveries are serialized by the source).
    func receive(_ value: Value) {
        // The value it replaces is let go after the lock: its deinit may be user code.
        var replaced: Value? = value
        let timerID: Int? = lock.withLock {
            if leading && !isWindowOpen { return openWindow() }
            swap(&replaced, &waiting)
            return leading ? nil : openWindow()
        }
        replaced = nil
        guard let timerID else { return }
        if leading { scheduler.schedule { [output = output!] in output.send(value) } }
        startTimer(timerID)
    }

    /// The source completed: a waiting value, then the completion, are sent on the scheduler.
    func complete() {
        let value: Value? = lock.withLock {
            generation += 1
            return waiting.take()
        }
        timer.replace(with: nil)
        scheduler.schedule { [output = output!] in
            if let value { output.send(value) }
            output.sendCompleted()
        }
    }

    /// The timer started for window `id` fired; runs on the scheduler.
    private func fire(_ id: Int) {
        let (value, nextTimer): (Value?, Int?) = lock.withLock {
            guard id == generation else { return (nil, nil) }
            isWindowOpen = false
            guard let value = waiting.take() else { return (nil, nil) }
            return (value, leading ? openWindow() : nil)
        }
        if let value { output.send(value) }
        if let nextTimer { startTimer(nextTimer) }
    }

    /// Starts a new window (a new timer generation); called with `lock` held.
    private func openWindow() -> Int {
        generation += 1
        isWindowOpen = true
        return generation
    }

    private func startTimer(_ id: Int) {
        timer.replace(with: scheduler.schedule(after: interval) { self.fire(id) })
    }
}
