// expect: capture of 'counter' with non-Sendable type 'Counter' in a '@Sendable' closure
// An observer that may run on any thread cannot capture state that is not safe to share.
import Signals

final class Counter {
    var total = 0
}

func count(numbers: Signal<Int>) {
    let counter = Counter()
    numbers.observe { counter.total += $0 }
}
