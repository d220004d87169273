import Foundation
import Networking
import Signals
import Synchronization
import Testing

/// `APIManager.call`: a call as a producer, tracked by an `Activity`.
@MainActor @Suite struct APIManagerProducerTests {
    /// How a test's run is tracked: told beside the outcome's path
    /// (`start(tracking:ended:)`, a logic's way), or with the activity's forwarder on it
    /// (`activity.track(producer).start(ended:)`).
    enum Tracking: CaseIterable, Sendable {
        case beside, forwarded
    }

    let engine = APIEngine(
        services: ServiceRegistry([APIService(name: "rentals", baseURL: URL(string: "https://api.example")!)]),
        transport: InProcessTransport { request in
            guard request.parameters["city"] != "nowhere" else {
                return .json(["message": "no such city"], status: 404)
            }
            return .json(["items": [["title": .string(request.parameters["city"] ?? "?")]]])
        })

    /// Starts `producer` tracked by `activity` and waits for its end; `changes` records,
    /// from the start on, every change of what a logic would derive from what it stores at
    /// the end and the activity: `stored|running|failure`.
    func outcome(
        _ producer: Producer<[String], APIResult>, _ activity: Activity<APIResult>, tracking: Tracking = .beside
    ) async -> (Result<[String], APIResult>, changes: [String]) {
        let stored = MutableProperty<[String]>([])
        let derived = Property.combineLatest(stored, activity.isRunning, activity.failure).map {
            "\($0.joined(separator: ","))|\($1)|\($2?.message ?? "")"
        }
        let changes = Mutex<[String]>([])
        let observation = derived.signal.observe { change in changes.withLock { $0.append(change) } }
        defer { observation.dispose() }
        let outcome = await withCheckedContinuation { continuation in
            let ended: @MainActor (Result<[String], APIResult>) -> Void = { outcome in
                if case .success(let titles) = outcome { stored.value = titles }
                continuation.resume(returning: outcome)
            }
            switch tracking {
            case .beside: producer.start(tracking: activity, ended: ended)
            case .forwarded: activity.track(producer).start(ended: ended)
            }
        }
        return (outcome, changes.withLock { $0 })
    }

    func titles(_ manager: APIManager<RentalTitlesAPI>, city: String) -> Producer<[String], APIResult> {
        manager.call(with: ["city": city], reformer: RentalTitlesReformer())
    }

    @Test(arguments: Tracking.allCases)
    func aRunEndsWithTheReformedDataOrTheFailedResultAndTheDerivedStateChangesOncePerEnd(
        tracking: Tracking
    ) async {
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let activity = Activity<APIResult>()
        let loaded = await outcome(titles(manager, city: "shanghai"), activity, tracking: tracking)
        #expect((try? loaded.0.get()) == ["shanghai"])
        // One change at the start, one at the end: never "not running, nothing stored yet".
        #expect(loaded.changes == ["|true|", "shanghai|false|"])
        let failed = await outcome(titles(manager, city: "nowhere"), activity, tracking: tracking)
        #expect(failed.0.failure?.message == "no such city")
        #expect(failed.changes == ["|true|", "|false|no such city"])
        #expect(activity.failure.value?.message == "no such city")
    }

    @Test func disposingARunCancelsItsCallAndTheNextRunGetsOnlyItsOwnOutcome() async {
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let activity = Activity<APIResult>()
        let first = titles(manager, city: "beijing").start { _ in Issue.record("a disposed run ended") }
        #expect(manager.isLoading)
        first.dispose()
        #expect(!manager.isLoading)
        // The first call's cancellation is reported after this run has started: it must
        // not end it.
        let second = await outcome(titles(manager, city: "shanghai"), activity)
        #expect((try? second.0.get()) == ["shanghai"])
        #expect(activity.failure.value == nil)
    }

    /// The reformer is told the call as a typed value: its definition, the parameters
    /// sent (paging included) and its page, with no manager to downcast.
    @Test func theReformerIsToldTheCallItReforms() async {
        struct CallReformer: APICallReformer {
            func reform(_ data: JSONValue, of call: APICall<RentalTitlesAPI>) -> [String] {
                [
                    call.definition.methodName, call.parameters["city"] ?? "-", call.parameters["page"] ?? "-",
                    "\(call.page)", "\(call.isFirstPage)", "\(call.isLastPage)",
                ]
            }
        }
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let first = await outcome(manager.call(with: ["city": "xian"], reformer: CallReformer()), Activity())
        // One item on a page of two: the last page.
        #expect((try? first.0.get()) == ["rentals/list", "xian", "1", "1", "true", "true"])
    }

    /// A call's producer may be started off the main actor: its call is queued to the
    /// main actor, where the manager lives, and the run still ends with the data.
    @Test func aRunStartedOffTheMainActorMakesItsCall() async {
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let producer = titles(manager, city: "ningbo")
        let outcome = await Task.detached {
            await withCheckedContinuation { continuation in
                _ = producer.start(
                    value: { continuation.resume(returning: $0) },
                    failed: { continuation.resume(returning: ["failed: \($0.message ?? "")"]) })
            }
        }.value
        #expect(outcome == ["ningbo"])
        #expect(!manager.isLoading)
    }

    /// A run the manager cancels for a newer call ends, failing as cancelled, instead of
    /// waiting for an outcome that never comes.
    @Test func aRunWhoseCallIsCancelledByTheManagerFailsAsCancelled() async {
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let activity = Activity<APIResult>()
        let ended = await withCheckedContinuation { continuation in
            _ = titles(manager, city: "wuhan").start(tracking: activity) { continuation.resume(returning: $0) }
            manager.cancelAllRequests()
        }
        #expect(ended.failure?.kind == .cancelled)
        #expect(!activity.isRunning.value)
        #expect(activity.failure.value?.kind == .cancelled)
    }

    /// A run tracked beside its path that is disposed ends for its activity at once (not
    /// running, no failure), cancels its call, and never calls `ended`; the activity
    /// then follows the next run alone.
    @Test func disposingARunTrackedBesideItsPathEndsItForTheActivityAndItHearsNothing() async {
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let activity = Activity<APIResult>()
        let run = titles(manager, city: "beijing").start(tracking: activity) { _ in
            Issue.record("a disposed run ended")
        }
        #expect(activity.isRunning.value && manager.isLoading)
        run.dispose()
        #expect(!activity.isRunning.value && !manager.isLoading)
        #expect(activity.failure.value == nil)
        let next = await outcome(titles(manager, city: "shanghai"), activity)
        #expect((try? next.0.get()) == ["shanghai"])
        #expect(next.changes == ["|true|", "shanghai|false|"])
    }

    /// What `ended` does with a failure lands in one change with the activity's failure
    /// and end: a logic that keeps something of a failure changes its state once.
    @Test func whatEndedDoesWithAFailureChangesOnceWithTheActivity() async {
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let activity = Activity<APIResult>()
        let note = MutableProperty("")
        let derived = Property.combineLatest(note, activity.isRunning, activity.failure).map {
            "\($0)|\($1)|\($2?.message ?? "")"
        }
        let changes = Mutex<[String]>([])
        let observation = derived.signal.observe { change in changes.withLock { $0.append(change) } }
        defer { observation.dispose() }
        await withCheckedContinuation { continuation in
            _ = titles(manager, city: "nowhere").start(tracking: activity) { outcome in
                if case .failure = outcome { note.value = "failed" }
                continuation.resume()
            }
        }
        #expect(changes.withLock { $0 } == ["|true|", "failed|false|no such city"])
    }

    /// A run tracked beside its path that fails at once (its call refused) or completes
    /// with no value leaves its failure in the activity before `ended` hears of it, and
    /// the activity stops running.
    @Test func aRunTrackedBesideItsPathThatEndsWithNoValueSetsTheActivitysFailureFirst() async {
        let activity = Activity<APIResult>()
        let empty = Producer<Int, APIResult> { input in
            input.sendCompleted()
            return AnyDisposable {}
        }
        let seen = await withCheckedContinuation { continuation in
            _ = empty.start(tracking: activity) { outcome in
                continuation.resume(returning: (outcome.failure?.kind, activity.failure.value?.kind))
            }
        }
        #expect(seen.0 == .noContent && seen.1 == .noContent)
        #expect(!activity.isRunning.value)
        let refused = Producer<Int, APIResult>(failure: APIResult(kind: .cancelled, message: "refused"))
        let told = await withCheckedContinuation { continuation in
            _ = refused.start(tracking: activity) { outcome in
                continuation.resume(returning: (outcome.failure?.message, activity.failure.value?.message))
            }
        }
        #expect(told.0 == "refused" && told.1 == "refused")
        #expect(!activity.isRunning.value)
    }

    /// `start(ended:)` on a producer that completes with no value ends it as no content;
    /// one disposed first never calls `ended`.
    @Test func aRunThatCompletesWithoutAValueEndsAsNoContentAndADisposedOneNeverEnds() async {
        let empty = Producer<Int, APIResult> { input in
            input.sendCompleted()
            return AnyDisposable {}
        }
        let ended = await withCheckedContinuation { continuation in
            _ = empty.start(ended: { continuation.resume(returning: $0) })
        }
        #expect(ended.failure?.kind == .noContent)
        let manager = APIManager(RentalTitlesAPI(), engine: engine)
        let disposed = titles(manager, city: "suzhou").start(ended: { _ in Issue.record("a disposed run ended") })
        disposed.dispose()
        // A later run on the same manager ends, and the disposed one stayed silent.
        let later = await outcome(titles(manager, city: "hefei"), Activity())
        #expect((try? later.0.get()) == ["hefei"])
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
