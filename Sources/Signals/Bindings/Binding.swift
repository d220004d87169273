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
    /// Calls `update` on the main actor with `target` and the current value, then every change.
    ///
    /// The binding lasts while `target` lives. `target` is held weakly: once it is gone
    /// the binding stops at the next change and frees `update`.
    ///
    /// A binding is made on the main actor, where views live, and always runs there: a
    /// change made on another thread is queued to the main actor, in order. So change
    /// bound state on the main actor (feed it through `observe(on: MainScheduler())`):
    /// then the view is updated before the change returns, and a test that awaited the
    /// state finds the view up to date.
    ///
    /// ```swift
    /// viewModel.title.bind(to: titleView) { view, title in view.text = title }
    ///     .dispose(in: bag)
    /// ```
    @MainActor @discardableResult
    public func bind<Target: AnyObject>(
        to target: Target,
        _ update: @escaping @MainActor (Target, Value) -> Void
    ) -> Disposable {
        node.core.addObservingCommitted(MainActorObserver(while: target, extract: { $0.value }, update))
    }

    /// Binds one field of a struct view model to `target` on the main actor.
    ///
    /// `update` gets the field's current value, then each new value of it, skipping
    /// changes of the struct that leave it equal.
    ///
    /// ```swift
    /// viewModel.bind(\.title, to: header) { header, title in header.title = title }
    /// ```
    @MainActor @discardableResult
    public func bind<Target: AnyObject, Field: Equatable & Sendable>(
        _ field: KeyPath<Value, Field> & Sendable,
        to target: Target,
        _ update: @escaping @MainActor (Target, Field) -> Void
    ) -> Disposable {
        map { $0[keyPath: field] }.bind(to: target, update)
    }
}

extension Signal {
    /// Calls `update` on the main actor with `target` and every value while `target` lives.
    ///
    /// `target` is held weakly: once it is gone the binding stops at the next value and
    /// frees `update`. Values sent on other threads are queued to the main actor, in
    /// order.
    @MainActor @discardableResult
    public func bind<Target: AnyObject>(
        to target: Target,
        _ update: @escaping @MainActor (Target, Value) -> Void
    ) -> Disposable {
        core.add(MainActorObserver(while: target, extract: { $0 }, update))
    }
}

/// A reference set once, right after the object it refers to is made, so the object's own
/// closure can reach it without keeping it alive.
// Safe to share: written once on the creating thread before the object is registered
// (so before any thread can read it); reads happen only in deliveries after that.
final class Unowned<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
}

extension ClosureObserver {
    /// An observer that calls `body` with `object` and each value while `object` lives,
    /// and disposes itself at the first value after it is gone.
    convenience init<Object: AnyObject & Sendable>(while object: Object, _ body: @escaping (Object, Value) -> Void) {
        let target = WeakReference(object)
        let observer = Unowned<Observer<Value>>()
        self.init(
            onValue: { value in
                guard let object = target.object else { return observer.object?.dispose() ?? () }
                body(object, value)
            }, onCompleted: nil)
        observer.object = self
    }
}

extension MainActorObserver {
    /// An observer that calls `update` on the main actor with `target` and each payload
    /// while `target` lives, and disposes itself at the first payload after it is gone.
    @MainActor
    convenience init<Target: AnyObject>(
        while target: Target, extract: @escaping (Value) -> Payload?,
        _ update: @escaping @MainActor (Target, Payload) -> Void
    ) {
        let observer = Unowned<Observer<Value>>()
        self.init(extract: extract) { [weak target] payload in
            guard let target else { return observer.object?.dispose() ?? () }
            update(target, payload)
        }
        observer.object = self
    }
}

extension MutableProperty {
    /// Sets `property` to every value `source` sends, while `property` lives.
    ///
    /// Each set happens on the thread that sends.
    @discardableResult
    public static func <~ (property: MutableProperty<Value>, source: Signal<Value>) -> Disposable {
        source.core.add(ClosureObserver(while: property) { property, value in property.value = value })
    }

    /// Sets `property` to the current value of `source` now, then to every change.
    ///
    /// Each change is copied on the thread that makes it.
    @discardableResult
    public static func <~ (property: MutableProperty<Value>, source: Property<Value>) -> Disposable {
        source.node.core.addObservingCommitted(
            ClosureObserver(while: property) { property, change in
                if case .changed(let value) = change { property.value = value }
            })
    }

    /// Keeps `left` and `right` equal, copying a change of either to the other.
    ///
    /// `left` takes `right`'s value now, then a change of either is copied to the other
    /// exactly once. The copy is never echoed back, so the binding cannot loop; when both
    /// sides are set at once from different threads, they settle on the same value. Holds
    /// both properties weakly.
    ///
    /// - Returns: A disposable that ends the binding.
    @discardableResult
    public static func <~> (left: MutableProperty<Value>, right: MutableProperty<Value>) -> Disposable {
        let echoes = EchoCounter()
        let weakLeft = WeakReference(left)
        let weakRight = WeakReference(right)
        let fromLeft = left.signal.observe { value in
            echoes.copy(from: .left) { weakRight.object?.value = value }
        }
        let fromRight = right.observe { value in
            echoes.copy(from: .right) { weakLeft.object?.value = value }
        }
        return CompositeDisposable([fromLeft, fromRight])
    }
}

/// Counts the changes a two-way binding made itself, so it can ignore their echoes.
///
/// Each copy (deciding, counting and setting) runs under one recursive lock, so copies
/// made from different threads cannot pass each other and leave the sides different;
/// the recursion allows the synchronous echo on the same thread.
// Safe to share: the counters are touched only under `lock`.
private final class EchoCounter: @unchecked Sendable {
    enum Side: Int { case left, right }
    private let lock = NSRecursiveLock()
    /// The echoes still to come of each side, by `Side.rawValue`.
    private var echoes = [0, 0]

    /// Runs `set` (which changes the other side) unless this change of `side` is the
    /// echo of a copy the binding made.
    func copy(from side: Side, _ set: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if echoes[side.rawValue] > 0 {
            echoes[side.rawValue] -= 1
        } else {
            echoes[1 - side.rawValue] += 1
            set()
        }
    }
}
