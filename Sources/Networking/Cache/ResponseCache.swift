import Foundation

/// Whether, and where, an API's responses are cached.
public enum CachePolicy: Sendable, Equatable {
    /// Never cached (the default; right for anything sensitive).
    case none
    /// Kept in memory for `timeToLive`.
    case memory(timeToLive: Duration = .seconds(180))
    /// Kept in memory and on disk for `timeToLive`.
    ///
    /// The disk store is consulted on a memory miss.
    case memoryAndDisk(timeToLive: Duration = .seconds(180))

    var timeToLive: Duration? {
        switch self {
        case .none: return nil
        case .memory(let ttl), .memoryAndDisk(let ttl): return ttl
        }
    }

    var usesDisk: Bool {
        if case .memoryAndDisk = self { return true }
        return false
    }
}

/// A stored response body and when it was stored.
public struct CachedResponse: Sendable, Equatable {
    /// The raw body.
    public let body: Data
    /// When it was stored.
    public let storedAt: Date

    /// Creates an entry.
    public init(body: Data, storedAt: Date) {
        self.body = body
        self.storedAt = storedAt
    }
}

/// Where cached responses live when they leave memory.
public protocol ResponseDiskStore: Sendable {
    /// The entry for `key`, or nil when there is none or it cannot be read.
    func load(_ key: String) -> CachedResponse?
    /// Stores `response` under `key`, replacing what was there.
    func save(_ response: CachedResponse, for key: String)
    /// Removes the entry for `key`.
    func remove(_ key: String)
}

/// The memory cache with a time to live and a size bound, backed by an optional disk store.
// Safe to share: `entries` and `useCounter` are touched only under `lock`.
public final class ResponseCache: @unchecked Sendable {
    private struct Entry {
        let response: CachedResponse
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var useCounter: UInt64 = 0
    /// The most entries kept in memory.
    ///
    /// Beyond it, the least recently used entry goes first.
    public let capacity: Int
    /// Consulted on a memory miss by policies that use disk.
    public let diskStore: (any ResponseDiskStore)?

    /// A cache of at most `capacity` responses in memory, with `diskStore` behind it.
    ///
    /// - Parameters:
    ///   - capacity: The most entries kept in memory; at least one.
    ///   - diskStore: Where policies that use disk keep their entries; none unless given.
    public init(capacity: Int = 100, diskStore: (any ResponseDiskStore)? = nil) {
        self.capacity = max(1, capacity)
        self.diskStore = diskStore
    }

    /// The key for one call: service, API and canonical parameters.
    public static func key(service: String, api: String, parameters: [String: String]) -> String {
        key(service: service, api: api, encodedParameters: CanonicalParameters.encode(parameters))
    }

    /// The key for one call whose parameters are already in canonical form.
    static func key(service: String, api: String, encodedParameters: String) -> String {
        service + "|" + api + "|" + encodedParameters
    }

    /// A fresh entry for `key` under `policy` at `now`, if there is one.
    ///
    /// It comes from memory or, when the policy uses disk, from the disk store, and is then
    /// kept in memory. An expired entry is forgotten.
    ///
    /// - Parameters:
    ///   - key: The call's key, from ``key(service:api:parameters:)``.
    ///   - policy: The API's policy, which gives the time to live; never an entry for
    ///     ``CachePolicy/none``.
    ///   - now: The time to judge freshness by.
    /// - Returns: The entry, stored less than the policy's time to live before `now`; nil
    ///   otherwise.
    public func response(for key: String, policy: CachePolicy, now: Date) -> CachedResponse? {
        guard let ttl = policy.timeToLive else { return nil }
        let limit = Double(ttl.components.seconds) + Double(ttl.components.attoseconds) / 1e18
        lock.lock()
        if var entry = entries[key] {
            if now.timeIntervalSince(entry.response.storedAt) < limit {
                useCounter += 1
                entry.lastUse = useCounter
                entries[key] = entry
                lock.unlock()
                return entry.response
            }
            entries[key] = nil
        }
        lock.unlock()
        guard policy.usesDisk, let stored = diskStore?.load(key) else { return nil }
        guard now.timeIntervalSince(stored.storedAt) < limit else {
            diskStore?.remove(key)
            return nil
        }
        insert(stored, for: key)
        return stored
    }

    /// Stores `body` for `key` under `policy` at `now`.
    ///
    /// Nothing is stored under ``CachePolicy/none``; a policy that uses disk also saves it
    /// to the disk store.
    public func store(_ body: Data, for key: String, policy: CachePolicy, now: Date) {
        guard policy.timeToLive != nil else { return }
        let response = CachedResponse(body: body, storedAt: now)
        insert(response, for: key)
        if policy.usesDisk { diskStore?.save(response, for: key) }
    }

    /// Forgets everything in memory (disk entries expire by their time to live).
    public func removeAll() {
        lock.lock()
        entries = [:]
        lock.unlock()
    }

    /// The number of entries in memory.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }

    private func insert(_ response: CachedResponse, for key: String) {
        lock.lock()
        useCounter += 1
        entries[key] = Entry(response: response, lastUse: useCounter)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            entries[oldest] = nil
        }
        lock.unlock()
    }
}

/// A disk store of one file per entry in a folder.
///
/// A file that cannot be read counts as a miss.
// Safe to share: files are read and written only under `lock`.
public final class FileResponseStore: ResponseDiskStore, @unchecked Sendable {
    /// The folder holding the entries.
    public let directory: URL
    private let lock = NSLock()

    /// Stores entries in `directory`, creating it when first needed.
    public init(directory: URL) {
        self.directory = directory
    }

    private func file(for key: String) -> URL {
        directory.appendingPathComponent(SHA256.hash(Array(key.utf8)).hexString + ".cache")
    }

    public func load(_ key: String) -> CachedResponse? {
        lock.lock()
        defer { lock.unlock() }
        let url = file(for: key)
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard data.count >= 8 else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        let milliseconds = data.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return CachedResponse(
            body: Data(data.dropFirst(8)), storedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    public func save(_ response: CachedResponse, for key: String) {
        lock.lock()
        defer { lock.unlock() }
        let milliseconds = UInt64(max(0, response.storedAt.timeIntervalSince1970 * 1000))
        var data = Data((0..<8).map { UInt8(truncatingIfNeeded: milliseconds >> (56 - 8 * UInt64($0))) })
        data.append(response.body)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: file(for: key), options: .atomic)
    }

    public func remove(_ key: String) {
        lock.lock()
        defer { lock.unlock() }
        try? FileManager.default.removeItem(at: file(for: key))
    }
}
