// expect: type 'Draft' does not conform to the 'Sendable' protocol
// Values cross threads, so a signal of a class that is not safe to share is refused.
import Signals

final class Draft {
    var text = ""
}

func drafts() -> Signal<Draft> {
    Signal<Draft>.pipe().output
}
