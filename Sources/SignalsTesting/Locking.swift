import Foundation

extension NSLock {
    /// Runs `body` holding the lock.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
