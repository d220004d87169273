import Dispatch
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The readers of a child's output that the harness stops (`TerminalHomes.quit`).
@Suite struct WatchedOutputTests {
    /// A reader stopped while its handler is about to read lets that read end before the
    /// descriptor is closed. Closed first, the number can go to a pipe opened meanwhile
    /// (tests run in parallel), whose output the late read then takes: a transcript test
    /// lost its `> open 1` line that way.
    @Test func stoppingWaitsForAReadUnderWayBeforeClosing() throws {
        var master: Int32 = -1
        var terminal: Int32 = -1
        guard openpty(&master, &terminal, nil, nil, nil) == 0 else { throw CocoaError(.fileNoSuchFile) }
        defer { close(terminal) }
        let reading = FileHandle(fileDescriptor: master, closeOnDealloc: false)
        let entered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        reading.readabilityHandler = { handle in
            entered.signal()
            _ = resume.wait(timeout: .now() + 5)
            // What `availableData` does, without blocking on (or crashing at) a number
            // that is no longer this pty's.
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return }
            var bytes = [UInt8](repeating: 0, count: 64)
            _ = read(handle.fileDescriptor, &bytes, bytes.count)
        }
        _ = write(terminal, "bye\n", 4)
        #expect(entered.wait(timeout: .now() + 5) == .success)

        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            WatchedOutput.stopReading(reading)
            stopped.signal()
        }
        let stoppedDuringTheRead = stopped.wait(timeout: .now() + 0.5) == .success
        // Another test's pipe, opened now, takes the lowest free number.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        _ = write(ends[1], "> open 1\n", 9)
        resume.signal()
        if !stoppedDuringTheRead { _ = stopped.wait(timeout: .now() + 5) }

        #expect(!stoppedDuringTheRead, "the descriptor was closed while its handler was about to read")
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &bytes, bytes.count)
        #expect(String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self) == "> open 1\n")
    }
}
