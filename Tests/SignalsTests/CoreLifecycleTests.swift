import Testing

@testable import Signals

/// The core's `Lifecycle`: its transitions, and the states a core goes through in use.
@Suite struct CoreLifecycleTests {
    @Test func terminatingHappensOnceAndKeepsTheOwnersOrTheDetachment() {
        #expect(Lifecycle.active(owners: 2).after { $0.terminate() } == (.terminating(owners: 2), true))
        #expect(Lifecycle.terminating(owners: 2).after { $0.terminate() } == (.terminating(owners: 2), false))
        #expect(
            Lifecycle.detached(terminating: false).after { $0.terminate() } == (.detached(terminating: true), true))
        #expect(
            Lifecycle.detached(terminating: true).after { $0.terminate() } == (.detached(terminating: true), false))
        #expect(Lifecycle.terminated.after { $0.terminate() } == (.terminated, false))
    }

    @Test func detachingHappensOnceAndKeepsWhetherACompletionIsQueued() {
        #expect(Lifecycle.active(owners: 0).after { $0.detach() } == (.detached(terminating: false), true))
        #expect(Lifecycle.terminating(owners: 0).after { $0.detach() } == (.detached(terminating: true), true))
        #expect(
            Lifecycle.detached(terminating: false).after { $0.detach() } == (.detached(terminating: false), false))
        #expect(Lifecycle.terminated.after { $0.detach() } == (.terminated, false))
    }

    @Test func finishingEndsEveryStateOnceAndNothingLeavesTerminated() {
        let states: [Lifecycle] = [
            .active(owners: 1), .terminating(owners: 1), .detached(terminating: false), .detached(terminating: true),
        ]
        for state in states {
            #expect(state.after { $0.finish() } == (.terminated, true))
        }
        #expect(Lifecycle.terminated.after { $0.finish() } == (.terminated, false))
        #expect(Lifecycle.terminated.afterChanging { $0.changeOwners(by: 1) } == (.terminated, true))
    }

    @Test func ownersAreCountedUntilTheCoreDetaches() {
        #expect(Lifecycle.active(owners: 1).afterChanging { $0.changeOwners(by: 1) } == (.active(owners: 2), true))
        #expect(
            Lifecycle.terminating(owners: 2).afterChanging { $0.changeOwners(by: -1) } == (
                .terminating(owners: 1), true
            ))
        let detached = Lifecycle.detached(terminating: false)
        #expect(detached.afterChanging { $0.changeOwners(by: 1) } == (detached, true))
        #expect(detached.owners == 0)
        #expect(Lifecycle.terminating(owners: 3).owners == 3)
    }

    @Test func queriesMatchTheStates() {
        let table: [(Lifecycle, terminating: Bool, detached: Bool)] = [
            (.active(owners: 1), false, false),
            (.terminating(owners: 1), true, false),
            (.detached(terminating: false), false, true),
            (.detached(terminating: true), true, true),
            (.terminated, true, true),
        ]
        for (state, terminating, detached) in table {
            #expect(state.isTerminating == terminating, "\(state)")
            #expect(state.isDetached == detached, "\(state)")
        }
    }

    @Test func aPipesCoreDetachesWhenItsSignalIsGoneAndItsLastObserverLeaves() {
        var (signal, input): (Signal<Int>?, Signal<Int>.Input) = Signal<Int>.pipe()
        let core = input.core
        #expect(lifecycle(of: core) == .active(owners: 1))
        let subscription = signal?.observe { _ in }
        signal = nil
        #expect(lifecycle(of: core) == .active(owners: 0))
        subscription?.dispose()
        #expect(lifecycle(of: core) == .detached(terminating: false))
        input.sendCompleted()
        #expect(lifecycle(of: core) == .terminated)
    }

    @Test func aCompletionSentDuringADeliveryIsTerminatingUntilItsTurn() {
        let (signal, input) = Signal<Int>.pipe()
        let seen = StateCell<[Lifecycle]>([])
        let subscription = signal.observe { value in
            guard value == 1 else { return }
            input.sendCompleted()
            seen.value.append(lifecycle(of: signal.core))
        }
        input.send(1)
        #expect(seen.value == [.terminating(owners: 1)])
        #expect(lifecycle(of: signal.core) == .terminated)
        subscription.dispose()
    }
}

private func lifecycle<Value>(of core: SignalCore<Value>) -> Lifecycle {
    core.withLock { core.lifecycle }
}

extension Lifecycle {
    /// The state after `change`, and what `change` returned.
    fileprivate func after(_ change: (inout Lifecycle) -> Bool) -> (Lifecycle, Bool) {
        var state = self
        let result = change(&state)
        return (state, result)
    }

    /// The state after `change`, which returns nothing.
    fileprivate func afterChanging(_ change: (inout Lifecycle) -> Void) -> (Lifecycle, Bool) {
        var state = self
        change(&state)
        return (state, true)
    }
}
