import Signals
import SignalsTesting
import Testing

/// What an operator or a bag lets go of is freed after its lock: the deinit of a user's
/// value or disposable may run any code, also code that takes that lock again.
@Suite struct FreedAfterTheLockTests {
    /// A value that runs `onFree` when it is freed.
    final class Freed: Sendable {
        let name: String
        let onFree: @Sendable () -> Void

        init(_ name: String, onFree: @escaping @Sendable () -> Void = {}) {
            self.name = name
            self.onFree = onFree
        }

        deinit { onFree() }
    }

    @Test func aDebouncedValueReplacedByTheNextIsFreedAfterTheOperatorsLock() {
        // The first value, never sent, is freed when the second replaces it; its deinit
        // moves the clock past the first value's deadline, which fires that timer, which
        // takes the operator's lock: held then, it would spin forever.
        let scheduler = TestScheduler()
        let (signal, input) = Signal<Freed>.pipe()
        let recorder = signal.debounce(.seconds(2), on: scheduler).map(\.name).record(on: scheduler)
        input.send(Freed("first") { scheduler.advance(by: .seconds(1)) })
        scheduler.advance(by: .seconds(1))
        input.send(Freed("second"))
        #expect(scheduler.now == .seconds(2), "the first value's deinit ran")
        scheduler.advance(by: .seconds(2))
        recorder.assertValues(["second"])
    }

    /// A disposable whose deinit asks its bag how many are live.
    final class AsksItsBag: Disposable {
        weak let bag: DisposeBag?
        let asked: Locked<Int>
        var isDisposed: Bool { true }

        init(bag: DisposeBag, asked: Locked<Int>) {
            self.bag = bag
            self.asked = asked
        }

        func dispose() {}

        deinit {
            if let bag, bag.liveCount >= 0 { asked.withLock { $0 += 1 } }
        }
    }

    @Test func disposablesABagPrunesAreFreedAfterItsLock() {
        // Past 16 entries the bag drops the disposed ones as it takes another: their
        // deinit asks the bag, which takes its lock.
        let bag = DisposeBag()
        let asked = Locked(0)
        for _ in 0..<16 { bag.insert(AsksItsBag(bag: bag, asked: asked)) }
        #expect(asked.value == 0)
        let (signal, input) = Signal<Int>.pipe()
        bag.insert(signal.observe { _ in })
        #expect(asked.value == 16, "each pruned one asked the bag once")
        #expect(bag.liveCount == 1)
        input.send(1)
    }
}
