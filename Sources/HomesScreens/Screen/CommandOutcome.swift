import Signals
import TextViews

/// What a command did to the session.
package enum CommandOutcome {
    /// Handled; the screen stays.
    case handled
    /// The command was refused: print this one line; the screen, unchanged, is not drawn again.
    case error(String)
    /// Show a new screen on top.
    case push(any Screen)
    /// Print the error, then show a new screen on top.
    case pushAfterError(any Screen, String)
    /// Print this line; the screen is not drawn again.
    case note(String)
    /// Ask for a secret without echo (on a terminal), then do what `then` says with it.
    case secret(prompt: String, then: (String) -> CommandOutcome)
}
