import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny test-and-set lock for the very short critical sections of the reactive core.
///
/// Sections guarded by it only move a few references around; no user code ever runs
/// while it is held, so waiters spin briefly and then yield the processor.
struct SpinLock: ~Copyable {
    private let state = Atomic<Bool>(false)

    init() {}

    @inline(__always)
    func lock() {
        if !state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            lockSlowly()
        }
    }

    @inline(__always)
    func unlock() {
        state.store(false, ordering: .releasing)
    }

    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    @inline(never)
    private func lockSlowly() {
        var spins = 0
        while true {
            if !state.load(ordering: .relaxed),
               state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
                return
            }
            spins += 1
            if spins >= 32 {
                sched_yield()
                spins = 0
            }
        }
    }
}
