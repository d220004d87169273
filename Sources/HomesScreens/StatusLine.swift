import Dispatch
import Foundation

/// The line a terminal session shows while work is in flight: a spinner, what is
/// running, the seconds elapsed and how to stop it, redrawn in place ten times a second
/// from the moment the work starts until it settles.
@MainActor
final class StatusLine {
    private static let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    private let write: @Sendable (String) -> Void
    private var timer: (any DispatchSourceTimer)?
    private var frame = 0
    private var started = ContinuousClock.now
    private var text = ""
    /// Where the status goes instead of over the current row (a row above the line being
    /// edited, on a terminal with a live prompt); nil takes it away.
    var show: (@Sendable (String?) -> Void)?

    init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Shows `activity` (e.g. "listings: loading") until `stop()`.
    func start(_ activity: String) {
        stop()
        text = activity
        started = .now
        frame = 0
        draw()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        self.timer = timer
    }

    /// Clears the line; the screen is drawn where it was.
    func stop() {
        guard let timer else { return }
        timer.cancel()
        self.timer = nil
        if let show { show(nil) } else { write("\r\u{1B}[K") }
    }

    /// Runs `body`, which writes, with the status taken away meanwhile and shown again
    /// after it (the seconds still counted from the start): a screen drawn while work is
    /// in flight never lands on the status's row.
    func around(_ body: () -> Void) {
        guard timer != nil else { return body() }
        if let show { show(nil) } else { write("\r\u{1B}[K") }
        body()
        draw()
    }

    private func draw() {
        let seconds = (ContinuousClock.now - started).components.seconds
        let spinner = Self.frames[frame % Self.frames.count]
        frame += 1
        let status = "\(spinner) \(text)… \(seconds) s (Ctrl-C stops it)"
        if let show { show(status) } else { write("\r\u{1B}[K" + status) }
    }
}
