import HomesScreens

/// Sees screens appear through a closure: what a feature without screen code of its own
/// hands the session to watch them (the operation logs' page views).
@MainActor
package final class ScreenObserver: ScreenLifecycleObserver {
    private let appeared: (String) -> Void

    /// An observer calling `appeared` with the name of every screen shown.
    package init(appeared: @escaping (String) -> Void) {
        self.appeared = appeared
    }

    package func screenDidAppear(_ name: String) {
        appeared(name)
    }
}
