import Foundation

precedencegroup BindingPrecedence {
    associativity: right
    higherThan: AssignmentPrecedence
}

/// Binds a source to a mutable property: `property <~ source`.
infix operator <~ : BindingPrecedence

/// Binds two mutable properties to each other: `left <~> right`.
infix operator <~> : BindingPrecedence

extension Property {
    /// Calls `update` with `target` and the current value at once, then with every change,
    /// while `target` lives. `target` is held weakly: once it is gone the binding stops
    /// at the next change and frees `update`.
    ///
    /// ```swift
    /// viewModel.title.bind(to: titleView) { view, title in view.text = title }
    ///     .dispose(in: bag)
    /// ```
    @discardableResult
    public func bind<Target: AnyObject>(
        to target: Target,
        _ update: @escaping (Target, Value) -> Void
    ) -> Disposable {
        let observer = ClosureObserver<Change<Value>>(onValue: nil, onCompleted: nil)
        observer.onValue = { [weak target, unowned observer] change in
            guard case .changed(let value) = change else { return }
            guard let target else { return observer.dispose() }
            update(target, value)
        }
        return node.core.addObservingCommitted(observer)
    }

    /// Binds one field of a struct view model: `update` gets the field's current value,
    /// then each new value of it, skipping changes of the struct that leave it equal.
    ///
    /// ```swift
    /// viewModel.bind(\.title, to: header) { header, title in header.title = title }
    /// ```
    @discardableResult
    public func bind<Target: AnyObject, Field: Equatable>(
        _ field: KeyPath<Value, Field>,
        to target: Target,
        _ update: @escaping (Target, Field) -> Void
    ) -> Disposable {
        map { $0[keyPath: field] }.skipRepeats().bind(to: target, update)
    }
}

extension Signal {
    /// Calls `update` with `target` and every value while `target` lives. `target` is
    /// held weakly: once it is gone the binding stops at the next value and frees `update`.
    @discardableResult
    public func bind<Target: AnyObject>(
        to target: Target,
        _ update: @escaping (Target, Value) -> Void
    ) -> Disposable {
        let observer = ClosureObserver<Value>(onValue: nil, onCompleted: nil)
        observer.onValue = { [weak target, unowned observer] value in
            guard let target else { return observer.dispose() }
            update(target, value)
        }
        return core.add(observer)
    }
}

extension MutableProperty {
    /// Sets `property` to every value `source` sends, while `property` lives.
    @discardableResult
    public static func <~ (property: MutableProperty<Value>, source: Signal<Value>) -> Disposable {
        source.bind(to: property) { property, value in property.value = value }
    }

    /// Sets `property` to the current value of `source` now, then to every change.
    @discardableResult
    public static func <~ (property: MutableProperty<Value>, source: Property<Value>) -> Disposable {
        source.bind(to: property) { property, value in property.value = value }
    }

    /// Keeps `left` and `right` equal: `left` takes `right`'s value now, then a change of
    /// either is copied to the other exactly once. The copy is never echoed back, so the
    /// binding cannot loop; when both sides are set at once from different threads, they
    /// settle on the same value. Holds both properties weakly.
    @discardableResult
    public static func <~> (left: MutableProperty<Value>, right: MutableProperty<Value>) -> Disposable {
        let echoes = EchoCounter()
        let fromLeft = left.signal.bind(to: right) { right, value in
            echoes.copy(from: .left) { right.value = value }
        }
        let fromRight = right.bind(to: left) { left, value in
            echoes.copy(from: .right) { left.value = value }
        }
        return CompositeDisposable([fromLeft, fromRight])
    }
}

/// Counts the changes a two-way binding made itself, so it can ignore their echoes.
///
/// Each copy (deciding, counting and setting) runs under one recursive lock, so copies
/// made from different threads cannot pass each other and leave the sides different;
/// the recursion allows the synchronous echo on the same thread.
private final class EchoCounter: @unchecked Sendable {
    enum Side { case left, right }
    private let lock = NSRecursiveLock()
    private var left = 0
    private var right = 0

    /// Runs `set` (which changes the other side) unless this change of `side` is the
    /// echo of a copy the binding made.
    func copy(from side: Side, _ set: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if side == .left, left > 0 { left -= 1; return }
        if side == .right, right > 0 { right -= 1; return }
        if side == .left { right += 1 } else { left += 1 }
        set()
    }
}
