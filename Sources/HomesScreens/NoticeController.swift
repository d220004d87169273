import Signals
import TextViews

/// The notice screen: what a not-found route or a failure says.
@MainActor
package final class NoticeController: Screen {
    package let name = "notice"
    package let rootView: any TextView
    package let changes: Signal<Void>
    private let input: Signal<Void>.Input

    /// A notice saying `message`.
    package init(message: String) {
        rootView = NoticeView(message + " (back to return)")
        (changes, input) = Signal<Void>.pipe()
    }

    package let isBusy = Property(value: false)
    package var commands: [CommandHelp] { [] }

    package func handle(_ command: Command) -> CommandOutcome? {
        nil
    }
}
