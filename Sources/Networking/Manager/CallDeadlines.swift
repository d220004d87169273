import Dispatch
import Foundation

/// The timeouts of an engine's calls: one dispatch timer for every call in flight, armed
/// for the earliest deadline, instead of a timer registered (and a dispatch thread woken)
/// per call.
///
/// Every call of an engine has the engine's one timeout, so deadlines are added in the
/// order they fall due and the pending ones form a queue. A call that finished is dropped
/// from either end of the queue as calls come and go; the timer fires at most once per
/// timeout period while calls keep finishing in time.
// Safe to share: `pending`, `head` and `armed` are touched only under `lock`, and the timer
// is rescheduled only under it.
final class CallDeadlines: @unchecked Sendable {
    private struct Entry {
        let deadline: UInt64
        let claim: OutcomeClaim
        let expire: @Sendable () -> Void
    }

    private let lock = NSLock()
    /// Deadlines in order from `head` on; entries before `head` are spent.
    private var pending: [Entry] = []
    private var head = 0
    /// Whether the timer is set (for the deadline at `head` or an earlier one).
    private var armed = false
    private let timer: DispatchSourceTimer

    init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "networking.deadlines"))
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// Calls `expire` once `timeout` has passed, unless `claim` was taken first (by the
    /// call's response or a cancellation); `expire` runs only if it takes the claim itself.
    func add(after timeout: Duration, claim: OutcomeClaim, expire: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        let now = DispatchTime.now().uptimeNanoseconds
        let (sum, overflow) = now.addingReportingOverflow(UInt64(InProcessTransport.nanoseconds(timeout)))
        let deadline = overflow ? UInt64.max : sum
        dropFinished()
        pending.append(Entry(deadline: deadline, claim: claim, expire: expire))
        if !armed {
            armed = true
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
        }
    }

    /// The number of calls still waiting for their deadline (finished ones not yet dropped
    /// included); for tests.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return pending.count - head
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        var expired: [Entry] = []
        lock.lock()
        while head < pending.count, pending[head].deadline <= now {
            expired.append(pending[head])
            head += 1
        }
        dropFinished()
        if head < pending.count {
            timer.schedule(deadline: DispatchTime(uptimeNanoseconds: pending[head].deadline), leeway: .milliseconds(1))
        } else {
            armed = false
        }
        lock.unlock()
        for entry in expired where entry.claim.take() {
            entry.expire()
        }
    }

    /// Drops finished calls from both ends (under `lock`): sequential calls finish before
    /// the next one starts, so the queue stays as long as the calls actually in flight.
    private func dropFinished() {
        while head < pending.count, pending[head].claim.isTaken { head += 1 }
        while pending.count > head, pending[pending.count - 1].claim.isTaken { pending.removeLast() }
        if head == pending.count {
            pending.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= pending.count {
            pending.removeFirst(head)
            head = 0
        }
    }
}
