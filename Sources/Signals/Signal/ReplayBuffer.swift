/// The last values a core delivered, for `share(replay:)`, oldest first.
///
/// Written when a value is delivered and read when one is replayed, both inside the core's
/// serialized deliveries (or once its last delivery has ended), so a new observer gets
/// exactly the values delivered before its turn came, then the ones after. It needs no
/// lock of its own and is not `Sendable`: the delivering thread touches it, and a late
/// observer reads it only after the last delivery ended (under the delivery's lock).
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
