import Signals
import SignalsTesting
import Testing

// Bugs in the core that the model check found, each pinned by the smallest test that
// failed (marked `withKnownIssue` until the bug is fixed, and the generator kept from
// drawing it meanwhile).
@Suite struct ModelCheckFoundBugs {
    /// Found by the model check (seed 0xe303c2573e45e24d of
    /// `oneThreadMatchesTheModelExactly`): `Property.combineLatest(a, b)` over inputs that
    /// had completed before it was made never completed, because it counted its inputs
    /// only after attaching to them, and a completed input completes while attaching.
    /// Fixed: the count is set first.
    @Test func aTupleCombinationOfCompletedPropertiesCompletes() {
        let (first, second) = (Property(value: 1), Property(value: 2))
        let list = Property.combineLatest([first, second]).signal.record()
        #expect(list.isCompleted)
        let pair = Property.combineLatest(first, second).signal.record()
        #expect(pair.isCompleted)
    }
}
