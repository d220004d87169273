// expect: call to main actor-isolated instance method 'bind(to:_:)' in a synchronous nonisolated context
// Bindings are made on the main actor, where views live.
import Signals

final class TitleView {
    var text = ""
}

func connect(title: Property<String>, to view: TitleView) {
    title.bind(to: view) { view, text in view.text = text }
}
