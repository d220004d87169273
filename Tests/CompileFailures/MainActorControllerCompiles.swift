// expect: compiles
// mode: sil
// The positive case: main-actor code binds a view and touches main-actor state (its own,
// and a non-Sendable local used again afterwards) from `observeOnMainActor`, with no
// `assumeIsolated`, no `await` and no warning, and through Rx's habit of
// `observe(on: MainScheduler())` then `observe`. Proves the snippets see the built module.
import Signals

@MainActor final class TitleView {
    var text = ""
}

@MainActor final class Controller {
    private let bag = DisposeBag()
    let view = TitleView()
    var taps = 0

    init(title: Property<String>, tapped: Signal<Int>) {
        title.bind(to: view) { view, text in view.text = text }.dispose(in: bag)
        title.map { $0.count }.bind(\.self, to: view) { view, count in view.text += " (\(count))" }
            .dispose(in: bag)
        tapped.observeOnMainActor { [weak self] count in self?.taps += count }.dispose(in: bag)
        let header = TitleView()
        title.observeOnMainActor { text in header.text = text.uppercased() }.dispose(in: bag)
        header.text = "ready"
        let footer = TitleView()
        tapped.observe(on: MainScheduler()).observe { count in footer.text = "\(count) taps" }.dispose(in: bag)
        tapped.map { $0 * 2 }.observe(on: MainScheduler()).bind(to: view) { view, count in view.text = "\(count)" }
            .dispose(in: bag)
        footer.text = "ready"
    }
}
