import Signals
import SignalsTesting
import Testing

// The README's example, verbatim apart from `print` becoming `#expect`.

private struct LoginViewModel: Equatable {
    var title = "Sign in"
    var canSubmit = false
}

private final class LoginView {
    var title = ""
    var isButtonEnabled = false
}

@MainActor private final class PriceLabel {
    var text = ""
}

@Suite struct ReadmeExampleTests {
    @Test @MainActor func signalsInOneExample() async {
        let username = MutableProperty("")
        let password = MutableProperty("")

        let viewModel: Property<LoginViewModel> = Property.combineLatest(username, password)
            .map { name, secret in
                LoginViewModel(
                    title: name.isEmpty ? "Sign in" : "Sign in as \(name)",
                    canSubmit: !name.isEmpty && secret.count >= 8)
            }

        let view = LoginView()
        let bag = DisposeBag()
        viewModel.bind(\.title, to: view) { view, title in view.title = title }.dispose(in: bag)
        viewModel.bind(\.canSubmit, to: view) { view, enabled in view.isButtonEnabled = enabled }
            .dispose(in: bag)

        username.value = "mei"
        password.value = "correct horse"
        #expect(view.title == "Sign in as mei")
        #expect(view.isButtonEnabled)

        let (taps, tap) = Signal<Int>.pipe()
        let total = MutableProperty(0)
        total <~ taps.filter { $0 > 0 }.scan(0, +)
        tap.send(2)
        tap.send(-1)
        tap.send(3)
        #expect(total.value == 5)
    }

    @Test @MainActor func isolationInOneExample() async {
        let bag = DisposeBag()
        let price = MutableProperty(0)
        let label = PriceLabel()
        price.map { "¥\($0)" }.bind(to: label) { label, text in label.text = text }.dispose(in: bag)
        await Task.detached { price.value = 3_600 }.value
        #expect(await mainQueueTurns(until: { label.text == "¥3600" }))

        let search = Action<String, [String]> { query in
            try await Task.sleep(for: .seconds(5)) // stands for a request
            return ["\(query) by the river"]
        }
        let errors = Locked<[String]>([])
        search.errors.observe { error in errors.append("\(type(of: error))") }.dispose(in: bag)
        #expect(search.apply("loft"))
        search.cancel()
        #expect(errors.withLock { $0 } == ["CancellationError"])
        #expect(!search.isExecuting.value)
    }

    @Test func debouncedSearch() {
        let scheduler = TestScheduler()
        let (queries, query) = Signal<String>.pipe()
        let searches = queries.debounce(.seconds(2), on: scheduler).record(on: scheduler)
        scheduler.drive(query, with: "ab---c|")
        scheduler.run()
        searches.assertMarbles("---b--(c|)")
    }

    @Test @MainActor func searchOnTheMainActor() async throws {
        let (queries, query) = Signal<String>.pipe()
        let results = queries.map { "\($0) by the river" }
        Task { @MainActor in query.send("loft") } // runs once the test awaits
        #expect(try await results.next() == "loft by the river")
    }
}
