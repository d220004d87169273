// expect: mutation of captured var 'total' in concurrently-executing code
// An observer that may run on any thread cannot mutate a local of the code that made it.
import Signals

func sum(numbers: Signal<Int>) -> Int {
    var total = 0
    numbers.observe { total += $0 }
    return total
}
