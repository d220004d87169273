import Foundation
import Networking
import Signals
import Testing

/// `APIManager.producer`: a call as a producer, tracked by an `Activity`.
@MainActor @Suite struct APIManagerProducerTests {
    let engine = APIEngine(
        services: ServiceRegistry([APIService(name: "rentals", baseURL: URL(string: "https://api.example")!)]),
        transport: InProcessTransport { request in
            guard request.parameters["city"] != "nowhere" else {
                return .json(["message": "no such city"], status: 404)
            }
            return .json(["items": [["title": .string(request.parameters["city"] ?? "?")]]])
        })

    /// Starts `producer` tracked by `activity` and waits for its end; `ended` also records
    /// whether the activity had been told by then.
    func outcome(
        _ producer: Producer<[String], APIResult>, _ activity: Activity<APIResult>
    ) async -> (Result<[String], APIResult>, wasRunning: Bool) {
        await withCheckedContinuation { continuation in
            _ = activity.track(producer).start { outcome in
                continuation.resume(returning: (outcome, activity.isRunning.value))
            }
        }
    }

    func titles(_ manager: APIManager<RentalTitlesAPI>, city: String) -> Producer<[String], APIResult> {
        manager.producer(parameters: ["city": city]) { $0.fetchData(with: RentalTitlesReformer()) }
    }

    @Test func aRunEndsWithTheReformedDataOrTheFailedResultAndTheActivityKnowsFirst() async {
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let activity = Activity<APIResult>()
        let loaded = await outcome(titles(manager, city: "shanghai"), activity)
        #expect((try? loaded.0.get()) == ["shanghai"])
        #expect(!loaded.wasRunning)
        let failed = await outcome(titles(manager, city: "nowhere"), activity)
        #expect(failed.0.failure?.message == "no such city")
        #expect(activity.failure.value?.message == "no such city")
    }

    @Test func disposingARunCancelsItsCallAndTheNextRunGetsOnlyItsOwnOutcome() async {
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let activity = Activity<APIResult>()
        let first = titles(manager, city: "beijing").start { _ in Issue.record("a disposed run ended") }
        #expect(manager.isLoading)
        first.dispose()
        #expect(!manager.isLoading)
        // The first call's cancellation is reported to the manager's delegate after this
        // run has started: it must not end it.
        let second = await outcome(titles(manager, city: "shanghai"), activity)
        #expect((try? second.0.get()) == ["shanghai"])
        #expect(activity.failure.value == nil)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
