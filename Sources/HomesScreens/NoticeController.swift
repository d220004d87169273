import Signals
import TextViews

/// The notice screen: what a not-found route or a failure says.
@MainActor
public final class NoticeController: Screen {
    public let name = "notice"
    public let rootView: any TextView
    public let changes: Signal<Void>
    private let input: Signal<Void>.Input

    /// A notice saying `message`.
    public init(message: String) {
        rootView = NoticeView(message + " (back to return)")
        (changes, input) = Signal<Void>.pipe()
    }

    public let isBusy = Property(value: false)
    public var commands: [CommandHelp] { [] }

    public func handle(_ command: Command) -> CommandOutcome? {
        nil
    }
}
