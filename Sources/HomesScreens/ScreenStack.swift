/// The screens shown on top of each other, and the observers that hear when one appears
/// or disappears (page-view logging without a base class).
@MainActor
final class ScreenStack {
    private var screens: [any Screen]
    /// Screens popped since the last `forgetPopped()`: their work must settle too, so the
    /// next line never races it.
    private var popped: [any Screen] = []
    private let lifecycle: [any ScreenLifecycleObserver]

    init(root: any Screen, lifecycle: [any ScreenLifecycleObserver]) {
        screens = [root]
        self.lifecycle = lifecycle
    }

    /// The screen shown.
    var top: (any Screen)? { screens.last }

    /// The screens below the one shown, the nearest first.
    var behind: [any Screen] { screens.dropLast().reversed() }

    /// Every screen whose work counts: shown, below, or popped since the last settle.
    var all: [any Screen] { screens + popped }

    /// Whether there is a screen to go back to.
    var canPop: Bool { screens.count > 1 }

    /// Tells the observers the first screen appeared.
    func showRoot() {
        if let root = screens.first { appeared(root) }
    }

    /// Shows `screen` on top, unless the screen on top already shows the same.
    func push(_ screen: any Screen) {
        if top?.identity == screen.identity { return }
        if let top { lifecycle.forEach { $0.screenDidDisappear(top.name) } }
        screens.append(screen)
        appeared(screen)
    }

    /// Goes back to the screen below.
    func pop() {
        guard canPop else { return }
        let top = screens.removeLast()
        popped.append(top)
        lifecycle.forEach { $0.screenDidDisappear(top.name) }
        if let now = screens.last { appeared(now) }
    }

    /// Lets go of the screens popped so far (once their work settled).
    func forgetPopped() {
        popped = []
    }

    private func appeared(_ screen: any Screen) {
        lifecycle.forEach { $0.screenDidAppear(screen.name) }
    }
}
