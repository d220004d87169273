import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if SIGNALS_PTHREAD_LOCK
    /// The core's lock built on a `pthread_mutex_t` (a futex, no spinning), for comparing with
    /// the spin lock below under contention:
    /// `swift build -c release --package-path Benchmarks -Xswiftc -DSIGNALS_PTHREAD_LOCK`.
    @usableFromInline
    struct SpinLock: ~Copyable {
        @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

        @inlinable init() {
            mutex = .allocate(capacity: 1)
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        @inlinable
        func lock() {
            pthread_mutex_lock(mutex)
        }

        @inlinable
        func unlock() {
            pthread_mutex_unlock(mutex)
        }

        @inlinable
        func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
            lock()
            defer { unlock() }
            return try body()
        }
    }
#else
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
#endif
