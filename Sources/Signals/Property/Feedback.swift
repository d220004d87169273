/// A source of events for a state machine made with
/// ``Property/init(initial:reduce:feedbacks:)``: effects that run per state, or events
/// from outside.
///
/// ```swift
/// let loading = Feedback<Search, Search.Event>(skippingRepeated: { $0.pageToLoad }) { page in
///     api.page(page).map(Search.Event.loaded).replaceError(with: .failed)
/// }
/// let typing = Feedback<Search, Search.Event>(queries.map(Search.Event.queryChanged))
/// ```
public struct Feedback<State: Sendable, Event: Sendable>: Sendable {
    /// The events made from the signal of the states: the current one first, then each new
    /// one.
    let events: @Sendable (Signal<State>) -> Signal<Event>

    /// Runs `effects` for each distinct non-nil query of the state, until the query changes.
    ///
    /// The effect of a query starts when the state first yields it and is stopped (its run
    /// disposed, its task cancelled) when the query changes or becomes nil, or when the
    /// machine is freed; a state that yields an equal query leaves it running. What the run
    /// sends is reduced as events.
    ///
    /// ```swift
    /// Feedback(skippingRepeated: { $0.isLoading ? $0.nextPage : nil }) { page in
    ///     api.page(page).map(Event.response)
    /// }
    /// ```
    public init<Query: Sendable & Equatable>(
        skippingRepeated query: @escaping @Sendable (State) -> Query?,
        effects: @escaping @Sendable (Query) -> Producer<Event, Never>
    ) {
        events = { states in
            states.map(query).skipRepeats().flatMap(.latest) { query in query.map(effects) ?? .empty }
        }
    }

    /// Feeds the machine every value `events` sends, whatever the state.
    ///
    /// ```swift
    /// Feedback(searchField.texts.map(Event.searchChanged))
    /// ```
    public init(_ events: Signal<Event>) {
        self.events = { _ in events }
    }

    /// Feeds the machine the events `events` makes of the signal of the states: the
    /// current state first, then each new one (RxFeedback's plain feedback).
    ///
    /// For a feedback that reads the state when something outside happens; an effect per
    /// state is ``init(skippingRepeated:effects:)``.
    ///
    /// ```swift
    /// Feedback { states in
    ///     nearBottom.withLatest(from: states) { _, state in state }.filter(\.hasMore).map(value: .loadNextPage)
    /// }
    /// ```
    public init(_ events: @escaping @Sendable (Signal<State>) -> Signal<Event>) {
        self.events = events
    }
}

extension Property {
    /// A state machine: a property that starts at `initial` and reduces every event its
    /// feedbacks send.
    ///
    /// Events are reduced one at a time, in the order they are sent, from any thread: an
    /// event sent while one is being reduced (an effect that answers at once) waits for it.
    /// The property is glitch-free like every property fed by a signal, and needs no bag:
    /// the feedbacks and the effects they run live as long as the property is kept or
    /// observed, and are stopped when it is freed.
    ///
    /// ```swift
    /// let counter = Property(
    ///     initial: 0,
    ///     reduce: { count, step in count += step },
    ///     feedbacks: Feedback(taps.map(value: 1)))
    /// ```
    /// Of an `Equatable` type, a state equal to the last one is not notified.
    public convenience init<Event: Sendable>(
        initial: Value,
        reduce: @escaping @Sendable (inout Value, Event) -> Void,
        feedbacks: Feedback<Value, Event>...
    ) {
        let (events, input) = Signal<Event>.pipe()
        // Replayed, so that a feedback subscribed after an effect of an earlier one changed
        // the state starts from that state, not from `initial`.
        let states = events.scan(initial) { state, event in
            var state = state
            reduce(&state, event)
            return state
        }.prefix(value: initial).share(replay: 1)
        self.init(initial: initial, then: states)
        // Kept by the property, not by the states they observe: once it is neither kept nor
        // observed, they are disposed, which stops the effects and frees the loop.
        for feedback in feedbacks { node.core.addUpstream(feedback.events(states).observe { input.send($0) }) }
    }
}
