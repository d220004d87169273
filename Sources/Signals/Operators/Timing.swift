extension Signal {
    /// Delivers every value and the completion on `scheduler`, in order.
    ///
    /// Deliveries already scheduled still run after the last observer leaves; they reach
    /// no one.
    public func observe(on scheduler: Scheduler) -> Signal<Value> {
        derived { output in
            forward(to: output, value: { value in scheduler.schedule { output.send(value) } },
                    completed: { scheduler.schedule { output.sendCompleted() } })
        }
    }

    /// Delivers every value and the completion `interval` later, on `scheduler`.
    ///
    /// Deliveries already scheduled still run after the last observer leaves; they reach
    /// no one.
    public func delay(_ interval: Duration, on scheduler: Scheduler) -> Signal<Value> {
        derived { output in
            forward(to: output, value: { value in
                scheduler.schedule(after: interval) { output.send(value) }
            }, completed: {
                scheduler.schedule(after: interval) { output.sendCompleted() }
            })
        }
    }

    /// Emits a value once the source has been quiet for `interval` (trailing edge): each
    /// new value restarts the timer and replaces the waiting one. On completion a waiting
    /// value is emitted at once, then the completion.
    public func debounce(_ interval: Duration, on scheduler: Scheduler) -> Signal<Value> {
        timed(TimingState(interval: interval, scheduler: scheduler, leading: false))
    }

    /// Emits at most one value per `interval`: the first value at once, then the latest
    /// value received during the interval when it ends. On completion a waiting value is
    /// emitted at once, then the completion.
    public func throttle(_ interval: Duration, on scheduler: Scheduler) -> Signal<Value> {
        timed(TimingState(interval: interval, scheduler: scheduler, leading: true))
    }

    private func timed(_ state: TimingState<Value>) -> Signal<Value> {
        derived { output in
            state.output = output
            output.addUpstream(state.timer)
            let step = state.step
            forward(to: output, value: { output.serialize(.value($0), step) },
                    completed: { output.serialize(.completed, step) })
        }
    }
}

/// The state of one `debounce` or `throttle`, touched only inside its output's
/// serialized sections. A pending timer refers back to it until it fires or is disposed.
private final class TimingState<Value>: @unchecked Sendable {
    enum Step {
        case value(Value)
        case fire(Int)
        case completed
    }

    let timer = SerialDisposable()
    var output: SignalCore<Value>!
    private let interval: Duration
    private let scheduler: Scheduler
    /// Throttle emits at the start of a window; debounce only when a timer fires.
    private let leading: Bool
    private var waiting: Value?
    private var generation = 0
    private var isWindowOpen = false

    init(interval: Duration, scheduler: Scheduler, leading: Bool) {
        self.interval = interval
        self.scheduler = scheduler
        self.leading = leading
    }

    func step(_ event: Step) {
        switch event {
        case .value(let value):
            if leading && !isWindowOpen {
                output.emit(value)
                startTimer()
            } else {
                waiting = value
                if !leading { startTimer() }
            }
        case .fire(let id):
            guard id == generation else { return }
            isWindowOpen = false
            if let value = waiting {
                waiting = nil
                output.emit(value)
                if leading { startTimer() }
            }
        case .completed:
            timer.replace(with: nil)
            if let value = waiting { output.emit(value) }
            waiting = nil
            output.emitCompleted()
        }
    }

    private func startTimer() {
        generation += 1
        isWindowOpen = true
        let id = generation
        let output = self.output!
        timer.replace(with: scheduler.schedule(after: interval) {
            output.serialize(.fire(id), self.step)
        })
    }
}
