import Foundation
import Networking
import Testing

extension ReachabilityTests {
    /// The statuses an observer saw.
    // Safe to share: `values` is touched only under `lock`.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var statuses: [Bool] = []
        func append(_ status: Bool) { lock.withLock { statuses.append(status) } }
        var values: [Bool] { lock.withLock { statuses } }
    }

    /// A child that observes the reachability itself, held only by another observer's closure.
    final class Child: Sendable {
        let observation: ReachabilityObservation
        init(observing reachability: NetworkReachability) {
            observation = reachability.observe { _ in }
        }
    }

    @Test func anObserverFreedByACancelMayCancelItsOwnObservation() {
        // Cancelling the outer observation frees its closure, and with it the child, whose
        // observation cancels itself as it goes: under the reachability's lock, that
        // would wait for the lock forever.
        let reachability = NetworkReachability()
        let seen = Seen()
        let outer: ReachabilityObservation
        do {
            let child = Child(observing: reachability)
            outer = reachability.observe { [child] reachable in
                withExtendedLifetime(child) { seen.append(reachable) }
            }
        }
        reachability.update(isReachable: false)
        outer.cancel()
        reachability.update(isReachable: true)
        #expect(seen.values == [false])
    }
}
