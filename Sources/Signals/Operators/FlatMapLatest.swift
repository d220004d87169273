extension Signal {
    /// Maps each value to a signal and forwards the values of the newest one only.
    ///
    /// The previous inner signal is unsubscribed as soon as a new value arrives. The
    /// result completes when this signal and the current inner signal have both completed.
    ///
    /// The same as `flatMap(.latest, transform)`.
    @inlinable
    public func flatMapLatest<Output: Sendable>(_ transform: @escaping @Sendable (Value) -> Signal<Output>) -> Signal<
        Output
    > {
        flatMap(.latest, transform)
    }
}
