/// Owns disposables and disposes them all when it is disposed or freed.
///
/// A controller keeps one bag for every binding it creates, so the bindings end with it.
///
/// ```swift
/// final class ListingController {
///     private let bag = DisposeBag()
///     init(logic: ListingLogic, view: ListingView) {
///         logic.title.bind(to: view) { view, title in view.title = title }.dispose(in: bag)
///     }
/// }
/// ```
// Safe to share: `disposables` and `pruneThreshold` are touched only under `lock`.
public final class DisposeBag: @unchecked Sendable {
    private let lock = SpinLock()
    private var disposables: [Disposable] = []
    /// Disposed entries are dropped when the bag grows past this, so it stays small.
    private var pruneThreshold = 16

    /// Creates an empty bag.
    public init() {}

    deinit {
        dispose()
    }

    /// Adds `disposable` to the bag, to be disposed with it.
    public func insert(_ disposable: Disposable) {
        // The pruned entries are let go after the lock: a user's disposable may have a
        // deinit that uses the bag.
        var pruned: [Disposable] = []
        lock.withLock {
            if disposables.count >= pruneThreshold {
                swap(&pruned, &disposables)
                disposables = pruned.filter { !$0.isDisposed }
                pruneThreshold = max(16, disposables.count * 2)
            }
            disposables.append(disposable)
        }
        pruned = []
    }

    /// The number of disposables in the bag that are not disposed yet.
    public var liveCount: Int {
        // Counted after the lock: a user's `isDisposed` may use the bag.
        lock.withLock { disposables }.reduce(0) { $0 + ($1.isDisposed ? 0 : 1) }
    }

    /// Disposes everything in the bag now and empties it.
    ///
    /// The bag stays usable.
    public func dispose() {
        var taken: [Disposable] = []
        lock.withLock { swap(&taken, &disposables) }
        for disposable in taken { disposable.dispose() }
    }
}
