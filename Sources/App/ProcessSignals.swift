import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Signals sent to the process (SIGINT, SIGTERM, SIGHUP), handled on the main actor
/// between two pieces of work instead of interrupting one.
///
/// A signal is caught by a handler installed with `signal(2)` before `watch` returns,
/// which writes its number to a pipe (all it may safely do); the main queue reads the
/// pipe and runs the watchers. Nothing sent after `watch` returns is lost.
@MainActor
enum ProcessSignals {
    /// Calls `handler` on the main actor for each of `signals` received while the
    /// returned watch is kept; their default actions are turned off meanwhile.
    static func watch(_ signals: [Int32], handler: @escaping @MainActor () -> Void) -> SignalWatch {
        let watch = SignalWatch(signals: signals, handler: handler)
        SignalPipe.shared.add(watch)
        return watch
    }

    /// Starts listening for `signals` now; `wait()` on the result returns once one of
    /// them has been received (at once if one already was). Listen before telling anyone
    /// the process is ready, so a signal sent right after is never lost.
    static func latch(_ signals: [Int32]) -> SignalLatch {
        let latch = SignalLatch()
        latch.watch = watch(signals) { [weak latch] in latch?.fire() }
        return latch
    }
}

/// The first of some signals, awaited (see `ProcessSignals.latch(_:)`).
@MainActor
final class SignalLatch {
    fileprivate var watch: SignalWatch?
    private var received = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    fileprivate init() {}

    fileprivate func fire() {
        watch?.cancel()
        watch = nil
        received = true
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.resume() }
    }

    /// Returns once one of the signals has been received.
    func wait() async {
        guard !received else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// Signal handlers installed by `ProcessSignals.watch`; `cancel()`, or letting the watch
/// go, removes them and gives the signals their default actions back.
@MainActor
final class SignalWatch {
    fileprivate let signals: [Int32]
    fileprivate let handler: @MainActor () -> Void
    fileprivate private(set) var isCancelled = false

    fileprivate init(signals: [Int32], handler: @escaping @MainActor () -> Void) {
        self.signals = signals
        self.handler = handler
    }

    isolated deinit {
        cancel()
    }

    func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        SignalPipe.shared.remove(self)
    }
}

/// The write end of the signal pipe, for the signal handler (which may only read a
/// lock-free value and call `write`); -1 until the pipe exists.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The pipe from the signal handler to the main queue, and the watches it serves.
@MainActor
private final class SignalPipe {
    static let shared = SignalPipe()

    /// Held weakly: letting a watch go ends it (its `deinit` cancels it).
    private struct Entry {
        weak var watch: SignalWatch?
    }

    private var entries: [Entry] = []
    private var watches: [SignalWatch] { entries.compactMap(\.watch) }
    private var source: (any DispatchSourceRead)?

    /// Registers `watch` and catches its signals from now on. Without a pipe (no file
    /// descriptors left) nothing is caught: the signals keep their default actions rather
    /// than being swallowed.
    func add(_ watch: SignalWatch) {
        guard openIfNeeded() else { return }
        entries.append(Entry(watch: watch))
        for number in watch.signals {
            _ = signal(number) { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                let descriptor = signalPipeWriteEnd.load(ordering: .acquiring)
                if descriptor >= 0 { _ = write(descriptor, &byte, 1) }
                errno = saved
            }
        }
    }

    /// Unregisters `watch`; a signal no watch wants any more gets its default action back.
    func remove(_ watch: SignalWatch) {
        entries.removeAll { $0.watch == nil || $0.watch === watch }
        for number in watch.signals where !watches.contains(where: { $0.signals.contains(number) }) {
            _ = signal(number, SIG_DFL)
        }
    }

    private func openIfNeeded() -> Bool {
        guard source == nil else { return true }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return false }
        for end in ends {
            // The handler must never block on a full pipe; children must not inherit it.
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        let readEnd = ends[0]
        signalPipeWriteEnd.store(ends[1], ordering: .releasing)
        let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .main)
        // The handler runs on the main queue, that is on the main actor.
        source.setEventHandler { SignalPipe.shared.drain(readEnd) }
        source.resume()
        self.source = source
        return true
    }

    /// Reads the signal numbers written so far and runs the watches of each, in order.
    private func drain(_ descriptor: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(descriptor, &bytes, bytes.count)
            guard count > 0 else { return }
            for number in bytes[0..<count].map(Int32.init) {
                // A handler may cancel watches: those are skipped from then on.
                for watch in watches where watch.signals.contains(number) && !watch.isCancelled { watch.handler() }
            }
        }
    }
}
