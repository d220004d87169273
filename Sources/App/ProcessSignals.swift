import Dispatch
import Foundation

/// Signals sent to the process (SIGINT, SIGTERM, SIGHUP), handled on the main actor
/// between two pieces of work instead of interrupting one.
@MainActor
enum ProcessSignals {
    /// Calls `handler` on the main actor for each of `signals` received while the
    /// returned watch is kept; their default actions are turned off meanwhile.
    static func watch(_ signals: [Int32], handler: @escaping @MainActor () -> Void) -> SignalWatch {
        SignalWatch(signals: signals, sources: signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { handler() }
            source.resume()
            return source
        })
    }

    /// Returns when the first of `signals` is received.
    static func first(of signals: [Int32]) async {
        var watch: SignalWatch?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            watch = Self.watch(signals) {
                watch?.cancel()
                watch = nil
                continuation.resume()
            }
        }
    }
}

/// Signal handlers installed by `ProcessSignals.watch`; `cancel()`, or letting the watch
/// go, removes them and gives the signals their default actions back.
@MainActor
final class SignalWatch {
    private let signals: [Int32]
    private var sources: [any DispatchSourceSignal]

    init(signals: [Int32], sources: [any DispatchSourceSignal]) {
        self.signals = signals
        self.sources = sources
    }

    isolated deinit {
        cancel()
    }

    func cancel() {
        guard !sources.isEmpty else { return }
        sources.forEach { $0.cancel() }
        sources = []
        signals.forEach { signal($0, SIG_DFL) }
    }
}
