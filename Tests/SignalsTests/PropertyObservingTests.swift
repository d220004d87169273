import Observation
import Signals
import SignalsTesting
import Testing

/// A listing as an `@Observable` model on the main actor, as SwiftUI models are.
@Observable @MainActor final class ObservedListing {
    var title = "loft"
    var price = 100
}

/// `Property(observing:)`: what a read of `@Observable` models returns, as a property that
/// reads again on the main actor after each change. See "Observation" in
/// Sources/Signals/Signals.docc/Contract.md.
@Suite(.timeLimit(.minutes(1))) struct PropertyObservingTests {
    @Test @MainActor func anObservableModelsPropertyBecomesAPropertyThatFollowsIt() async throws {
        let listing = ObservedListing()
        let title = Property(observing: { listing.title })
        #expect(title.value == "loft")
        let recorder = title.record()
        let changes = title.signal.record()
        listing.title = "barn"
        #expect(try await recorder.values(count: 2) == ["loft", "barn"])
        #expect(title.value == "barn")
        listing.title = "mill"
        #expect(try await changes.values(count: 2) == ["barn", "mill"])
        #expect(recorder.values == ["loft", "barn", "mill"])
    }

    @Test @MainActor func changesBeforeTheMainActorsNextTurnArriveAsTheLatest() async throws {
        let listing = ObservedListing()
        let title = Property(observing: { listing.title })
        let recorder = title.record()
        listing.title = "barn"
        listing.title = "mill"
        #expect(try await recorder.values(count: 2) == ["loft", "mill"])
    }

    @Test @MainActor func onlyAChangeOfWhatItReadMakesItReadAgain() async throws {
        let listing = ObservedListing()
        let reads = Locked(0)
        let title = Property(observing: {
            _ = reads.increment()
            return listing.title
        })
        let recorder = title.record()
        listing.price = 120
        // A read it asked for would be queued to the main actor before this turn.
        await mainQueueTurn()
        #expect(reads.value == 1)
        listing.title = "barn"
        await mainQueueTurn()
        #expect(reads.value == 2)
        recorder.assertValues(["loft", "barn"])
    }

    @Test @MainActor func freeingItReleasesTheReadAndTheModel() async {
        weak var weakListing: ObservedListing?
        weak var weakTitle: Property<String>?
        do {
            let listing = ObservedListing()
            let title = Property(observing: { listing.title })
            weakListing = listing
            weakTitle = title
        }
        #expect(weakTitle == nil)
        #expect(weakListing == nil)
    }

    @Test @MainActor func aFreedOneReadsNoMore() async {
        let listing = ObservedListing()
        let reads = Locked(0)
        weak var weakTitle: Property<String>?
        do {
            let title = Property(observing: {
                _ = reads.increment()
                return listing.title
            })
            weakTitle = title
        }
        #expect(weakTitle == nil)
        listing.title = "barn"
        await mainQueueTurn()
        #expect(reads.value == 1)
    }

    @Test @MainActor func anObservedOneFollowsAfterItsWrapperIsFreed() async throws {
        let listing = ObservedListing()
        let recorder = Property(observing: { listing.title }).record()
        listing.title = "barn"
        #expect(try await recorder.values(count: 2) == ["loft", "barn"])
    }
}
