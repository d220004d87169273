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
@usableFromInline
struct SpinLock: ~Copyable {
    @usableFromInline let state = Atomic<Bool>(false)

    @inlinable init() {}

    @inlinable
    func lock() {
        if !state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            lockSlowly()
        }
    }

    @inlinable
    func unlock() {
        state.store(false, ordering: .releasing)
    }

    @inlinable
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    @usableFromInline @inline(never)
    func lockSlowly() {
        var spins = 0
        while true {
            if !state.load(ordering: .relaxed),
                state.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
            {
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
