import CEventPoll
import Foundation
import Networking
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One thread's share of the server: an epoll loop over the connections it accepted.
/// Created on its own thread and never touched by another, so it needs no lock.
final class EventLoop {
    private let core: ServerCore
    private let handles: LoopHandles
    private var connections: [Int32: HTTPConnection] = [:]
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    private let clock = ContinuousClock()
    private var nextSweep: ContinuousClock.Instant
    private static let sweepInterval = Duration.milliseconds(100)

    init(core: ServerCore, handles: LoopHandles) {
        self.core = core
        self.handles = handles
        self.nextSweep = ContinuousClock.now + Self.sweepInterval
    }

    static func register(_ descriptor: Int32, events: UInt32, in epoll: Int32, modify: Bool = false) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.fd = descriptor
        return epoll_ctl(epoll, modify ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, descriptor, &event) == 0
    }

    func run() {
        core.loopStarted()
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while !core.stopped.load(ordering: .acquiring) {
            // Deadlines are checked by a sweep every 100 ms while any connection is open.
            let timeout: Int32
            if connections.isEmpty {
                timeout = -1
            } else {
                let remaining = nextSweep - clock.now
                timeout = remaining <= .zero ? 0 : Int32(remaining.components.attoseconds / 1_000_000_000_000_000) + 1
            }
            let count = epoll_wait(handles.epoll, &events, Int32(events.count), timeout)
            if count < 0 && errno != EINTR { break }
            for event in events.prefix(Int(max(0, count))) {
                let descriptor = event.data.fd
                if descriptor == handles.listener {
                    acceptConnections()
                } else if descriptor == handles.wake {
                    var value: UInt64 = 0
                    _ = read(handles.wake, &value, MemoryLayout<UInt64>.size)
                } else if let connection = connections[descriptor] {
                    serve(connection, events: event.events)
                }
            }
            let now = clock.now
            if now >= nextSweep {
                sweep(now: now)
                nextSweep = now + Self.sweepInterval
            }
        }
        for connection in connections.values { drop(connection) }
        handles.close()
    }

    // MARK: - Accepting

    private func acceptConnections() {
        while true {
            let descriptor = cep_accept_nonblocking(handles.listener)
            guard descriptor >= 0 else { return } // EAGAIN: another loop took it, or none left
            let admitted = core.openConnections.wrappingAdd(1, ordering: .relaxed).newValue
            if admitted > core.limits.maximumConnections {
                // Full: the longest-idle connection of this loop makes room.
                if let idlest = connections.values.min(by: { $0.lastActivity < $1.lastActivity }) {
                    drop(idlest)
                } else {
                    core.openConnections.wrappingSubtract(1, ordering: .relaxed)
                    let refusal = HTTPResponse(status: 503, body: Data("too many connections".utf8))
                    let bytes = HTTPConnection.serialize(refusal, keepAlive: false, minorVersion: 1)
                    _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    close(descriptor)
                    continue
                }
            }
            var yes: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            let connection = HTTPConnection(descriptor: descriptor, limits: core.limits, now: clock.now)
            guard Self.register(descriptor, events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue, in: handles.epoll) else {
                core.openConnections.wrappingSubtract(1, ordering: .relaxed)
                close(descriptor)
                continue
            }
            connections[descriptor] = connection
        }
    }

    // MARK: - Serving

    private func serve(_ connection: HTTPConnection, events: UInt32) {
        let now = clock.now
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && events & EPOLLIN.rawValue == 0 {
            return drop(connection)
        }
        if events & EPOLLOUT.rawValue != 0 {
            guard connection.flush(now: now) else { return drop(connection) }
            if connection.isFlushed && connection.peerClosed { return drop(connection) }
            // Requests that waited while the output drained.
            if connection.isFlushed {
                connection.resume(now: now, core: core)
                guard connection.flush(now: now) else { return drop(connection) }
            }
        }
        if events & EPOLLIN.rawValue != 0 && connection.isReading {
            let count = readBuffer.withUnsafeMutableBytes { read(connection.descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno != EAGAIN && errno != EINTR { return drop(connection) }
            if count == 0 {
                // The client has said all it will: what it asked is still answered.
                if connection.isFlushed { return drop(connection) }
                connection.peerClosed = true
            }
            if count > 0 {
                readBuffer.withUnsafeBufferPointer { buffer in
                    connection.receive(UnsafeBufferPointer(rebasing: buffer[0..<count]), now: now, core: core)
                }
                guard connection.flush(now: now) else { return drop(connection) }
            }
        }
        updateInterest(connection)
    }

    /// Reads while the connection can take more; writes while output is waiting.
    private func updateInterest(_ connection: HTTPConnection) {
        let wanted =
            (connection.isReading ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0)
            | (connection.isFlushed ? 0 : EPOLLOUT.rawValue)
        guard wanted != connection.registeredEvents else { return }
        connection.registeredEvents = wanted
        _ = Self.register(connection.descriptor, events: wanted, in: handles.epoll, modify: true)
    }

    private func sweep(now: ContinuousClock.Instant) {
        for connection in connections.values where connection.hasMissedDeadline(now: now) {
            connection.timeOut(now: now)
            if connection.hasMissedDeadline(now: now) { drop(connection) } else { updateInterest(connection) }
        }
    }

    private func drop(_ connection: HTTPConnection) {
        guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
        connection.releaseBodyRoom(core: core)
        epoll_ctl(handles.epoll, EPOLL_CTL_DEL, connection.descriptor, nil)
        close(connection.descriptor)
        core.openConnections.wrappingSubtract(1, ordering: .relaxed)
    }
}
