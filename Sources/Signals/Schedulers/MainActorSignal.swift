/// A signal that delivers on the main actor, so its observers are main-actor code.
///
/// It is what `signal.observe(on: MainScheduler())` returns. The habit of Rx code, `observe(on: MainScheduler.instance)` then subscribe, works here
/// and the compiler still checks it: the closure given to ``observe(_:)`` is `@MainActor`,
/// so it may update views, and a `@Sendable` closure could not (see "Isolation" in
/// <doc:Contract>). It is the same as calling ``Signal/observeOnMainActor(_:)`` on the
/// scheduled signal; use ``signal`` to go on with operators.
///
/// ```swift
/// results.observe(on: MainScheduler()).observe { rows in table.rows = rows }   // table is @MainActor
/// ```
public struct MainActorSignal<Value: Sendable>: Sendable {
    /// The wrapped signal, which delivers every value and the completion on the main actor.
    public let signal: Signal<Value>

    init(_ signal: Signal<Value>) {
        self.signal = signal
    }

    /// Calls `action` on the main actor with every value, in order.
    @discardableResult
    public func observe(_ action: @escaping @MainActor (Value) -> Void) -> Disposable {
        signal.observeOnMainActor(action)
    }

    /// Calls `update` on the main actor with `target` and every value while `target` lives.
    ///
    /// See ``Signal/bind(to:_:)``.
    @MainActor @discardableResult
    public func bind<Target: AnyObject>(
        to target: Target,
        _ update: @escaping @MainActor (Target, Value) -> Void
    ) -> Disposable {
        signal.bind(to: target, update)
    }
}

extension Signal {
    /// Delivers every value and the completion on the main actor, in order.
    ///
    /// The result's observers are main-actor code: its `observe` takes a `@MainActor`
    /// closure.
    ///
    /// ```swift
    /// titles.observe(on: MainScheduler()).observe { title in header.text = title }
    /// ```
    public func observe(on scheduler: MainScheduler) -> MainActorSignal<Value> {
        MainActorSignal(delivered(on: scheduler))
    }
}
