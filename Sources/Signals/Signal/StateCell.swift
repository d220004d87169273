/// Mutable state of an operator, shared by its closures.
///
/// Operators touch it only inside serialized deliveries, so it skips Swift's dynamic
/// exclusivity checks, which would otherwise dominate the cost of each event.
// Safe to share: operators touch it only inside serialized deliveries of one core.
@usableFromInline
final class StateCell<Value>: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
