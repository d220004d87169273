extension Signal {
    /// A signal that sends `value` to its first observer, then completes.
    ///
    /// Like every signal made from work, it starts when its first observer arrives, once;
    /// an observer that comes later gets the completion only (a signal carries events, not
    /// state: use ``prefix(value:)``, ``share(replay:)`` or a ``Property`` to give every
    /// observer a value). So it is the short way to answer with a constant from
    /// `flatMapLatest`:
    ///
    /// ```swift
    /// let results = queries.flatMapLatest { query in
    ///     query.isEmpty ? Signal(value: []) : search(query)
    /// }
    /// ```
    public convenience init(value: Value) {
        self.init { input in
            input.send(value)
            input.sendCompleted()
            return DisposedDisposable.shared
        }
    }

    /// A signal that sends the elements of `values` to its first observer, then completes.
    ///
    /// The sequence is read once, when the signal is made, so it must be finite. As with
    /// ``init(value:)``, an observer that comes after the first gets the completion only.
    ///
    /// ```swift
    /// let steps = Signal(values: ["Address", "Payment", "Review"])
    /// ```
    public convenience init(values: some Sequence<Value>) {
        let elements = ContiguousArray(values)
        self.init { input in
            for element in elements { input.send(element) }
            input.sendCompleted()
            return DisposedDisposable.shared
        }
    }

    /// A signal that has already completed.
    ///
    /// Every observer gets the completion at once.
    ///
    /// ```swift
    /// let details = selection.flatMapLatest { id in id.map(load) ?? .empty }
    /// ```
    public static var empty: Signal<Value> {
        let core = SignalCore<Value>()
        core.sendCompleted()
        return Signal(core: core)
    }

    /// A signal that never sends a value and never completes.
    ///
    /// Its observers stay registered until they are disposed (`flatMapLatest` disposes the
    /// inner signal it switches away from).
    public static var never: Signal<Value> {
        Signal(core: SignalCore<Value>())
    }
}

extension Signal where Value == Int {
    /// A signal that sends the tick numbers 1, 2, 3… once every `interval` on `scheduler`.
    ///
    /// The signal never completes.
    /// The ticks start when the first observer arrives (tick `n` falls `n * interval`
    /// later, without drift), are delivered on `scheduler`, and stop once the signal is
    /// released and its last observer has left; a signal that is still held keeps ticking.
    /// An interval of zero or less never ticks. Ticks need a scheduler that waits: on an
    /// ``ImmediateScheduler``, which treats every delay as zero, they would never end.
    ///
    /// ```swift
    /// let remaining = Signal.timer(every: .seconds(1), on: MainScheduler())
    ///     .map { 10 - $0 }
    ///     .take(while: { $0 >= 0 })
    /// ```
    public static func timer(every interval: Duration, on scheduler: Scheduler) -> Signal<Int> {
        guard interval > .zero else { return .never }
        return Signal { input in
            let ticker = Ticker(input: input, interval: interval, scheduler: scheduler)
            ticker.schedule(tick: 1)
            return ticker.pending
        }
    }
}

/// The state of one `Signal.timer`: the next tick scheduled, which refers back to it until
/// it runs or is disposed (disposing `pending` breaks that cycle).
private final class Ticker: Sendable {
    let pending = SerialDisposable()
    private let input: Signal<Int>.Input
    private let interval: Duration
    private let scheduler: Scheduler
    private let start: Duration

    init(input: Signal<Int>.Input, interval: Duration, scheduler: Scheduler) {
        self.input = input
        self.interval = interval
        self.scheduler = scheduler
        start = scheduler.now
    }

    /// Schedules tick `number`, due `number` intervals after the start.
    func schedule(tick number: Int) {
        let delay = start + interval * number - scheduler.now
        pending.replace(
            with: scheduler.schedule(after: max(delay, .zero)) { [self] in
                input.send(number)
                schedule(tick: number + 1)
            })
    }
}
