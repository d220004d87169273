import Signals
import SignalsTesting
import Synchronization
import Testing

/// The code of `Signals.docc/ComingFromRxSwift.md`, run; `DocumentationExampleTests` checks
/// that the article shows exactly the marked regions, in order.
@Suite struct ComingFromRxSwiftTests {
    @Test func subjectsAndRelaysArePipesAndProperties() {
        // article: Signals/ComingFromRxSwift
        // PublishRelay<Void>: a pipe. Keep the input: freeing it completes the signal.
        let (taps, tap) = Signal<Void>.pipe()
        // BehaviorRelay(value: 0): a MutableProperty, read and set through `value`.
        let count = MutableProperty(0)
        count <~ taps.scan(0) { total, _ in total + 1 } // .bind(to: count)
        tap.send()
        tap.send()
        // relay.accept(relay.value + [x]) as one step that no other thread can split.
        let cart = MutableProperty<[String]>([])
        cart.modify { $0.append("Loft") }
        print(count.value, cart.value) // 2 ["Loft"]

        // ReplaySubject.create(bufferSize: 1): a pipe shared with a replay of one.
        let (events, event) = Signal<String>.pipe()
        let recent = events.share(replay: 1)
        let first = recent.record() // the first observer starts it
        event.send("opened")
        let late = recent.record()
        late.assertValues(["opened"])
        // article end
        #expect(count.value == 2)
        #expect(cart.value == ["Loft"])
        first.assertValues(["opened"])
    }

    @Test func aDriverIsASharedReplayDeliveredOnTheMainActor() {
        let scheduler = TestScheduler()
        // article: Signals/ComingFromRxSwift
        let (answers, answer) = Signal<[String]>.pipe()
        let results = answers.share(replay: 1) // asDriver(): shared, with a replay of one
        let header = results.map { "\($0.count) homes" } // replays too, as a Driver's map does
        // .drive(...): observe(on: MainScheduler()) in the app, a TestScheduler in a test.
        let list = results.observe(on: scheduler).record(on: scheduler)
        answer.send(["Loft", "Studio"])
        let title = header.observe(on: scheduler).record(on: scheduler) // a view bound later
        scheduler.advance()
        list.assertValues([["Loft", "Studio"]])
        title.assertValues(["2 homes"])
        // article end
        #expect(title.values == ["2 homes"])
    }

    @Test func rxTestTimelinesAreMarbles() {
        let scheduler = TestScheduler()
        // article: Signals/ComingFromRxSwift
        // createHotObservable: drive a pipe from a diagram; createObserver: record(on:).
        let (queries, query) = Signal<String>.pipe()
        let searches = queries.debounce(.seconds(2), on: scheduler).record(on: scheduler)
        scheduler.drive(query, with: "ab---c|")
        scheduler.run()
        searches.assertMarbles("---b--(c|)") // XCTAssertEqual(observer.events, [...])
        // article end
        #expect(searches.values == ["b", "c"])
    }

    @Test func aFailureInsideFlatMapIsAValue() {
        let scheduler = TestScheduler()
        let api = GuideSearchAPI(scheduler: scheduler)
        // article: Signals/ComingFromRxSwift
        let (queries, query) = Signal<String>.pipe()
        let results = queries.flatMap(.latest) { text in api.search(text) } // Signal<Result<[String], SearchError>>
        let rows = results.successes().record()
        let problems = results.failures().record()
        query.send("offline")
        scheduler.advance(by: .milliseconds(200))
        query.send("loft") // the stream is still there
        scheduler.advance(by: .milliseconds(200))
        rows.assertValues([["loft by the river"]])
        problems.assertValues([.offline])
        // article end
        #expect(api.requests.load(ordering: .relaxed) == 2)
    }

    @Test func retryCountsRetriesAndTimeoutHasTwoForms() {
        let scheduler = TestScheduler()
        let api = GuideSearchAPI(scheduler: scheduler)
        // article: Signals/ComingFromRxSwift
        // RxSwift's retry(3) is three attempts in all: here, the first and two more.
        let attempts = api.search("offline").retry(upTo: 2).record()
        scheduler.advance(by: .seconds(1))
        print(api.requests.load(ordering: .relaxed)) // 3
        attempts.assertValues([.failure(.offline)])

        // RxSwift's timeout(_:scheduler:) is the gap between values: timeout(whenIdleFor:).
        // timeout(after:) bounds the whole run.
        let idle = api.search("loft").timeout(whenIdleFor: .seconds(1), raising: .timedOut, on: scheduler)
        let whole = api.search("loft").timeout(after: .milliseconds(100), raising: .timedOut, on: scheduler)
        let answered = idle.record()
        let tooSlow = whole.record()
        scheduler.advance(by: .seconds(1))
        answered.assertValues([.success(["loft by the river"])])
        tooSlow.assertValues([.failure(.timedOut)])
        // article end
        #expect(answered.isCompleted)
        #expect(tooSlow.isCompleted)
    }

    @Test func aSharedReplayKeepsItsValuesWithNoObserver() {
        // article: Signals/ComingFromRxSwift
        let (prices, price) = Signal<Int>.pipe()
        let latest = prices.share(replay: 1)
        let screen = latest.observe { _ in }
        price.send(3_600)
        screen.dispose() // every observer has left: RxSwift's .whileConnected would forget 3600
        latest.record().assertValues([3_600]) // the screen shown again starts from the last answer
        // article end
    }

    @Test func sampleSendsAgainAndSkipUntilOpensOnAnEmptyCompletion() {
        // article: Signals/ComingFromRxSwift
        let (names, name) = Signal<String>.pipe()
        let (submits, submit) = Signal<Void>.pipe()
        let submitted = names.sample(on: submits).record()
        name.send("mei")
        submit.send()
        submit.send() // pressed twice, submitted twice (RxSwift's sample sends "mei" once)
        submitted.assertValues(["mei", "mei"])

        let (ready, readiness) = Signal<Void>.pipe()
        let afterReady = names.skip(until: ready).record()
        readiness.sendCompleted() // over with no value: the gate opens (RxSwift keeps it shut)
        name.send("lin")
        afterReady.assertValues(["lin"])
        // article end
    }

    @Test func timerTicksCountFromOne() {
        let scheduler = TestScheduler()
        // article: Signals/ComingFromRxSwift
        // Tick n comes n intervals after the start: a countdown from 10 needs no off-by-one.
        let countdown = Signal.timer(every: .seconds(1), on: scheduler).take(first: 3).map { 10 - $0 }
        let shown = countdown.record()
        scheduler.advance(by: .seconds(3))
        shown.assertValues([9, 8, 7]) // Observable.interval sends 0, 1, 2
        // article end
        #expect(shown.isCompleted)
    }

    @Test func workStartsAtTheFirstObserverAndAProducerAtEachStart() {
        // article: Signals/ComingFromRxSwift
        let starts = MutableProperty(0)
        let hot = Signal<String> { input in
            starts.modify { $0 += 1 }
            input.send("rows")
            return AnyDisposable {}
        }
        let first = hot.record() // the work runs here, once
        let second = hot.record() // shares the run: no second request, and no replay
        print(starts.value, first.values, second.values) // 1 ["rows"] []

        let cold = Producer<String, Never> { input in
            starts.modify { $0 += 1 }
            input.send("rows")
            input.sendCompleted()
            return AnyDisposable {}
        }
        cold.start(value: { _ in })
        cold.start(value: { _ in }) // a run per start, as an Observable per subscription
        print(starts.value) // 3
        // article end
        #expect(starts.value == 3)
        first.assertValues(["rows"])
        second.assertValues([])
    }

    @Test func anActivityTracksASignalsOneRun() {
        // article: Signals/ComingFromRxSwift
        let loading = Activity<Never>()
        let (page, pageInput) = Signal<[String]>.pipe()
        let shown = loading.track(page).record() // its one run: from this first observer to its end
        print(loading.isRunning.value) // true
        pageInput.send(["Loft"])
        pageInput.sendCompleted()
        print(loading.isRunning.value) // false
        // article end
        #expect(!loading.isRunning.value)
        shown.assertValues([["Loft"]])
    }

    @Test func debounceSendsWhatWaitsThenCompletes() {
        let scheduler = TestScheduler()
        // article: Signals/ComingFromRxSwift
        let (typed, type) = Signal<String>.pipe()
        let settled = typed.debounce(.milliseconds(300), on: scheduler).record(on: scheduler)
        type.send("lo")
        type.sendCompleted() // "lo" still waits: it is sent, then the completion
        scheduler.run()
        settled.assertValues(["lo"])
        print(settled.isCompleted) // true
        // article end
        #expect(settled.isCompleted)
    }

}

// article: Signals/ComingFromRxSwift
/// A login form's fields; the action may run once both are there.
struct LoginForm: Equatable, Sendable {
    var name = ""
    var password = ""
    var isComplete: Bool { !name.isEmpty && password.count >= 8 }
}

/// A feed's state and the events that change it, as an RxFeedback system has them.
struct Feed: Equatable, Sendable {
    var query: String? // the search the state asks for; nil while none is wanted
    var rows: [String] = []

    enum Event: Sendable {
        case search(String)
        case loaded([String])
    }

    mutating func reduce(_ event: Event) {
        switch event {
        case .search(let text): query = text
        case .loaded(let rows):
            self.rows = rows
            query = nil
        }
    }
}
// article end

/// The habits of ported apps, in our spelling.
extension ComingFromRxSwiftTests {
    @Test func theSearchViewModelRunsAsTheArticleSays() {
        let scheduler = TestScheduler()
        let api = GuideSearchAPI(scheduler: scheduler)
        // article: Signals/ComingFromRxSwift
        let query = MutableProperty("")
        let activity = Activity<SearchError>() // ActivityIndicator and ErrorTracker in one
        let rows: Signal<[String]> = query.signal
            .debounce(.milliseconds(300), on: scheduler) // MainScheduler() in the app
            .skipRepeats() // distinctUntilChanged()
            .flatMap(.latest) { text in // flatMapLatest
                activity.track(api.search(text)) // .trackActivity(indicator).trackError(tracker)
                    .replaceError(with: []) // catchAndReturn([]): this search ends, the stream goes on
            }
            .prefix(value: []) // startWith([])
        let isLoading: Property<Bool> = activity.isRunning // indicator.asDriver()
        let problem: Property<String?> = activity.failure.map { failure in // tracker.asDriver()
            failure.map { "Search failed: \($0)" }
        }

        let shown = rows.record()
        query.value = "offline"
        scheduler.advance(by: .milliseconds(300))
        print(isLoading.value) // true
        scheduler.advance(by: .milliseconds(200))
        print(problem.value ?? "") // Search failed: offline
        query.value = "loft"
        scheduler.advance(by: .milliseconds(500))
        shown.assertValues([[], [], ["loft by the river"]])
        print(problem.value == nil) // true: a search that starts clears the last failure
        // article end
        #expect(!isLoading.value)
        #expect(problem.value == nil)
        #expect(api.requests.load(ordering: .relaxed) == 2)
    }

    @Test @MainActor func theLoginFormRunsAsTheArticleSays() async throws {
        let auth = GuideAuth()
        // article: Signals/ComingFromRxSwift
        let form = MutableProperty(LoginForm())
        let login = Action<Void, String>(state: form, enabledIf: \.isComplete) { form, _ in
            try await auth.signIn(form.name, form.password)
        }
        let sessions = login.values.record() // action.elements
        let refused = login.disabledErrors.record() // ActionError.notEnabled, on a signal of its own
        let (taps, tap) = Signal<Void>.pipe()
        login <~ taps // submitButton.rx.tap.bind(to: login.inputs)
        tap.send() // the form is empty: refused
        form.value = LoginForm(name: "mei", password: "homes2026")
        print(login.isEnabled.value) // true: bind it to the button
        let session = try await login.run() // action.execute(()), awaited
        print(session, login.isExecuting.value) // token-mei false
        sessions.assertValues(["token-mei"])
        // article end
        #expect(refused.values.count == 1)
        #expect(session == "token-mei")
    }

    @Test func theFeedbackLoopRunsAsTheArticleSays() {
        let scheduler = TestScheduler()
        let api = GuideSearchAPI(scheduler: scheduler)
        // article: Signals/ComingFromRxSwift
        let state = MutableProperty(Feed())
        let (events, send) = Signal<Feed.Event>.pipe()
        let loop = DisposeBag() // the loop lives as long as this bag
        // The reducer: every event changes the state in one step.
        events.observe { event in state.modify { $0.reduce(event) } }.dispose(in: loop)
        // A feedback: a query of the state; each new one starts its effect, a nil cancels it.
        state.currentAndChanges.map(\.query).skipRepeats()
            .flatMap(.latest) { (query: String?) -> Producer<Feed.Event, Never> in
                guard let query else { return .empty }
                return api.search(query).replaceError(with: []).map { Feed.Event.loaded($0) }
            }
            .observe { send.send($0) }.dispose(in: loop)

        send.send(.search("loft"))
        scheduler.advance(by: .milliseconds(200))
        print(state.value.rows, state.value.query ?? "no query") // ["loft by the river"] no query
        loop.dispose() // the loop stops
        // article end
        #expect(state.value == Feed(query: nil, rows: ["loft by the river"]))
        send.send(.search("studio"))
        scheduler.advance(by: .seconds(1))
        #expect(api.requests.load(ordering: .relaxed) == 1)
    }
}

/// The failures of the guides' stand-in API.
enum SearchError: Error, Equatable {
    case offline
    case timedOut
}

/// Stands for the network in the migration guides: a search answers 200 ms after its run
/// starts, on `scheduler`, so the examples run in virtual time; "offline" fails.
final class GuideSearchAPI: Sendable {
    let scheduler: TestScheduler
    let requests = Atomic(0)

    init(scheduler: TestScheduler) { self.scheduler = scheduler }

    func search(_ text: String) -> Producer<[String], SearchError> {
        Producer { input in
            self.requests.add(1, ordering: .relaxed)
            return self.scheduler.schedule(after: .milliseconds(200)) {
                if text == "offline" {
                    input.send(failure: .offline)
                } else {
                    input.send(["\(text) by the river"])
                    input.sendCompleted()
                }
            }
        }
    }
}

/// Stands for a sign-in request: answers at once with a token for the name.
struct GuideAuth: Sendable {
    func signIn(_ name: String, _ password: String) async throws -> String { "token-\(name)" }
}
