// expect: sending 'counter' risks causing data races
// mode: sil
// A main-actor observer written in nonisolated code takes its captures to the main actor:
// using one afterwards here would race with the observer. (Reported by the SIL stage only.)
import Signals

final class Counter {
    var total = 0
}

func count(numbers: Signal<Int>) {
    let counter = Counter()
    numbers.observeOnMainActor { counter.total += $0 }
    counter.total += 1
}
