import Dispatch
import Foundation

extension Process {
    /// Waits for the process to end, killing it first if it still runs after `seconds`: a
    /// test whose child goes wrong fails on its exit status instead of hanging the run.
    func waitUntilExit(killingAfter seconds: Double) {
        // The process cannot be reaped (and its id reused) before this wait returns.
        let pid = processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        waitUntilExit()
        watchdog.cancel()
    }
}
