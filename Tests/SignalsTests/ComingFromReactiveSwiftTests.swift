import Signals
import SignalsTesting
import Synchronization
import Testing

/// The code of `Signals.docc/ComingFromReactiveSwift.md`, run; `DocumentationExampleTests`
/// checks that the article shows exactly the marked regions, in order. The stand-ins
/// (`GuideSearchAPI`, `SearchError`) are those of `ComingFromRxSwiftTests`.
@Suite struct ComingFromReactiveSwiftTests {
    @Test func propertiesFromStreamsAndBatches() {
        // article: Signals/ComingFromReactiveSwift
        let (answers, answer) = Signal<[String]>.pipe()
        let rows = Property(initial: [], then: answers) // Property(initial:then:)
        let count = rows.map(\.count) // kept, as a view model keeps its outputs
        let counts = count.currentAndChanges.record() // property.producer
        answer.send(["Loft", "Studio"])
        counts.assertValues([0, 2])

        let name = MutableProperty("")
        let email = MutableProperty("")
        let line = Property.combineLatest(name, email).map { "\($0) <\($1)>" }
        let lines = line.signal.record()
        withBatchedChanges { // two sets, one change downstream
            name.value = "mei"
            email.value = "mei@example.com"
        }
        lines.assertValues(["mei <mei@example.com>"])
        // article end
        #expect(line.value == "mei <mei@example.com>")
    }

    @Test func aSignalProducerIsAProducer() {
        let scheduler = TestScheduler()
        let api = GuideSearchAPI(scheduler: scheduler)
        // article: Signals/ComingFromReactiveSwift
        let search = api.search("offline") // a Producer<[String], SearchError>: cold, typed
        let fallback = search.catch { _ in Producer<[String], Never>(value: ["saved homes"]) } // flatMapError
        let none = Producer<[String], Never>.empty.setFailureType(to: SearchError.self) // promoteError
        let shown = fallback.record()
        let nothing = none.record()
        search.start(value: { print($0) }, failed: { print("failed:", $0) }) // startWithResult
        scheduler.advance(by: .milliseconds(200)) // failed: offline
        shown.assertValues([.success(["saved homes"])])
        print(nothing.isCompleted) // true
        // article end
        #expect(nothing.values.isEmpty)
        #expect(api.requests.load(ordering: .relaxed) == 2)
    }

    @Test func flatMapOfASignalGivesResultsAndOfAProducerFails() {
        let scheduler = TestScheduler()
        let api = GuideSearchAPI(scheduler: scheduler)
        // article: Signals/ComingFromReactiveSwift
        let (queries, query) = Signal<String>.pipe()
        let results = queries.flatMap(.latest) { text in api.search(text) } // never fails
        let rows = results.successes().record()
        let problems = results.failures().record()
        query.send("offline")
        scheduler.advance(by: .milliseconds(200))
        query.send("loft")
        scheduler.advance(by: .milliseconds(200))
        rows.assertValues([["loft by the river"]])
        problems.assertValues([.offline])

        // A producer flattened into a producer: the first failure ends the whole, as in ReactiveSwift.
        let details = api.search("loft").flatMap(.concat) { _ in api.search("offline") }.record()
        scheduler.advance(by: .milliseconds(400))
        details.assertValues([.failure(.offline)])
        // article end
        #expect(details.isCompleted)
    }

    @Test func anActionRunsAProducerThroughItsCompletion() {
        let scheduler = TestScheduler()
        let api = GuideSearchAPI(scheduler: scheduler)
        // article: Signals/ComingFromReactiveSwift
        // Action { text in SignalProducer }: start the producer and call `done` once.
        let search = Action<String, [String]> { text, done in
            api.search(text).start(value: { done(.success($0)) }, failed: { done(.failure($0)) })
        }
        let rows = search.values.record()
        let failures = search.errors.record() // any Error: the work's error, or a CancellationError
        let finished = search.completed.record()
        let refused = search.disabledErrors.record() // an ActionDisabledError each, not ()
        let (queries, query) = Signal<String>.pipe()
        search <~ queries // the action's BindingTarget
        query.send("offline")
        query.send("loft") // still running: refused
        scheduler.advance(by: .milliseconds(200))
        search.apply("loft")
        scheduler.advance(by: .milliseconds(200))
        rows.assertValues([["loft by the river"]])
        print(failures.values.count, finished.values.count, refused.values.count) // 1 1 1
        // article end
        #expect(failures.values.count == 1)
        #expect(finished.values.count == 1)
        #expect(refused.values.count == 1)
        #expect(!search.isExecuting.value)
    }

    @Test func aSharedReplayIsReplayLazily() {
        // article: Signals/ComingFromReactiveSwift
        let starts = MutableProperty(0)
        let listings = Signal<[String]> { input in
            starts.modify { $0 += 1 }
            input.send(["Loft", "Studio"])
            return AnyDisposable {}
        }
        let shared = listings.share(replay: 1) // replayLazily(upTo: 1)
        let titles = shared.map { $0.joined(separator: ", ") } // replays what it delivered
        let first = titles.record() // the work starts here, once
        let late = titles.record()
        print(starts.value, late.values) // 1 ["Loft, Studio"]
        // article end
        #expect(starts.value == 1)
        first.assertValues(["Loft, Studio"])
        late.assertValues(["Loft, Studio"])
    }

    @Test func timingOperatorsCompleteAsTheySay() {
        let scheduler = TestScheduler()
        // article: Signals/ComingFromReactiveSwift
        let (typed, type) = Signal<String>.pipe()
        let settled = typed.debounce(.milliseconds(300), on: scheduler).record(on: scheduler)
        type.send("lo")
        type.sendCompleted() // ReactiveSwift drops "lo" by default (discardWhenCompleted)
        scheduler.run()
        settled.assertValues(["lo"])

        let (names, name) = Signal<String>.pipe()
        let (submits, submit) = Signal<Void>.pipe()
        let submitted = names.sample(on: submits).record()
        name.send("mei")
        submit.send()
        submit.send() // the latest again, as in ReactiveSwift
        submit.sendCompleted() // the trigger is over, so is the sample: no waiting for `names`
        submitted.assertValues(["mei", "mei"])
        print(submitted.isCompleted) // true

        // timer(interval:on:) sends dates; ours sends the tick's number, from 1.
        let ticks = Signal.timer(every: .seconds(1), on: scheduler).take(first: 2).record()
        scheduler.advance(by: .seconds(2))
        ticks.assertValues([1, 2])
        // article end
        #expect(settled.isCompleted)
        #expect(submitted.isCompleted)
    }
}
