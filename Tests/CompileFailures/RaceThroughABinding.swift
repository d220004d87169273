// expect: main actor-isolated property 'text' can not be mutated from a Sendable closure
// A `@Sendable` observer runs on the sending thread: it cannot touch a main-actor view,
// even when written in main-actor code. Use `bind(to:)` or `observeOnMainActor` instead.
import Signals

@MainActor final class TitleView {
    var text = ""
}

@MainActor func show(titles: Signal<String>, in view: TitleView) {
    titles.observe { title in view.text = title }
}
