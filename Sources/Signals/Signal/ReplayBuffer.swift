/// The last values a core delivered, for `share(replay:)`, oldest first.
///
/// Written when a value is delivered and read when one is replayed, both inside the core's
/// serialized deliveries (a late observer's too: it gets its catch-up in a delivery of its
/// own), so a new observer gets exactly the values delivered before its turn came, then
/// the ones after. It needs no lock of its own and is not `Sendable`: only the delivering
/// thread touches it.
@usableFromInline
final class ReplayBuffer<Value> {
    @usableFromInline let limit: Int
    @usableFromInline @exclusivity(unchecked) var values: ContiguousArray<Value> = []
    /// Where the oldest value is once `values` is full (it is used as a ring).
    @usableFromInline @exclusivity(unchecked) var oldest = 0

    @usableFromInline
    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Keeps `value` as the newest, dropping the oldest beyond `limit`.
    @usableFromInline
    func append(_ value: Value) {
        guard limit > 0 else { return }
        if values.count < limit {
            values.append(value)
        } else {
            values[oldest] = value
            oldest = (oldest + 1) % limit
        }
    }

    /// Delivers the kept values, oldest first, to `observer` until it is disposed.
    @usableFromInline
    func replay(to observer: Observer<Value>) {
        let kept = values
        for offset in kept.indices {
            guard !observer.isDisposed else { return }
            observer.receive(kept[(oldest + offset) % kept.count])
        }
    }
}
