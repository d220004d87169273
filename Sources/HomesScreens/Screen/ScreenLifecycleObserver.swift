import Signals
import TextViews

/// Sees every screen appear and disappear: how app-wide behaviour (page-view logging) is
/// added to every controller without a base class.
@MainActor
package protocol ScreenLifecycleObserver: AnyObject {
    /// The screen named `name` is now shown.
    func screenDidAppear(_ name: String)
    /// The screen named `name` is no longer shown.
    func screenDidDisappear(_ name: String)
}

extension ScreenLifecycleObserver {
    /// Does nothing.
    package func screenDidDisappear(_ name: String) {}
}
