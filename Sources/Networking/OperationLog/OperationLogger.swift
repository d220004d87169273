import Foundation

/// One recorded user operation (a page view, a tap), waiting to be uploaded.
public struct OperationLogEntry: Sendable, Equatable, Codable {
    /// Unique and increasing in the order entries were recorded.
    public let sequence: Int64
    /// What happened, e.g. `page_view`.
    public let event: String
    /// Details of the event.
    public let attributes: [String: String]
    /// When it happened.
    public let timestamp: Date

    /// Creates an entry.
    public init(sequence: Int64, event: String, attributes: [String: String], timestamp: Date) {
        self.sequence = sequence
        self.event = event
        self.attributes = attributes
        self.timestamp = timestamp
    }
}

/// Where entries wait until they are uploaded.
///
/// The app backs it with persistence, so that entries survive a restart.
public protocol OperationLogStore: Sendable {
    /// Adds an entry with the next sequence number.
    ///
    /// - Returns: The entry added.
    func append(event: String, attributes: [String: String], timestamp: Date) -> OperationLogEntry
    /// The oldest `limit` entries.
    func oldest(_ limit: Int) -> [OperationLogEntry]
    /// Removes the entries with these sequence numbers.
    ///
    /// - Returns: Whether they were removed; false stops the logger's uploads until the
    ///   next start, instead of uploading the same entries again and again.
    @discardableResult
    func remove(_ sequences: Set<Int64>) -> Bool
    /// How many entries wait.
    var count: Int { get }
}

/// Sends a batch of entries somewhere, on the main actor.
@MainActor
public protocol OperationLogUploader: AnyObject {
    /// Uploads `batch`.
    ///
    /// - Parameters:
    ///   - batch: The oldest entries waiting, in order.
    ///   - completion: Called once, on the main actor, with true only when the batch
    ///     arrived; the entries leave the store only then.
    func upload(_ batch: [OperationLogEntry], completion: @escaping (Bool) -> Void)
}

/// Records operations and uploads them in batches of `batchSize`, 30 unless given.
///
/// A full batch is uploaded as soon as it is complete; whatever is left is uploaded by
/// `uploadPending()` at the next start. Entries leave the store only after their upload
/// succeeded, so a failed upload loses nothing. It lives on the main actor, where
/// operations happen.
@MainActor
public final class OperationLogger {
    private let store: any OperationLogStore
    private let uploader: any OperationLogUploader
    /// Entries per upload.
    public let batchSize: Int
    private let clock: @Sendable () -> Date
    private var isUploading = false
    /// Set when everything waiting was asked for while an upload was in flight.
    private var flushRequested = false
    /// Uploads stop (until the next start) once the store fails to forget what was
    /// uploaded, instead of uploading the same entries again and again.
    private var isStopped = false

    /// A logger keeping entries in `store` and sending them with `uploader`.
    ///
    /// - Parameters:
    ///   - store: Where entries wait until they are uploaded.
    ///   - uploader: Sends each batch.
    ///   - batchSize: Entries per upload, at least one; 30 unless given.
    ///   - clock: The time each entry is recorded at; injectable for tests.
    public init(
        store: any OperationLogStore,
        uploader: any OperationLogUploader,
        batchSize: Int = 30,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.uploader = uploader
        self.batchSize = max(1, batchSize)
        self.clock = clock
    }

    /// Records an operation, and uploads a batch once `batchSize` entries wait.
    ///
    /// - Parameters:
    ///   - event: What happened, e.g. `page_view`.
    ///   - attributes: Details of the event.
    public func record(_ event: String, attributes: [String: String] = [:]) {
        _ = store.append(event: event, attributes: attributes, timestamp: clock())
        if store.count >= batchSize { upload(onlyFullBatches: true) }
    }

    /// Uploads everything waiting, in batches of at most `batchSize`.
    ///
    /// Call it at app start. A failed upload leaves the rest for the next start, or for the
    /// next full batch.
    public func uploadPending() {
        upload(onlyFullBatches: false)
    }

    private func upload(onlyFullBatches: Bool) {
        let batch: [OperationLogEntry]? = {
            if !onlyFullBatches { flushRequested = true }
            guard !isUploading, !isStopped else { return nil }
            let waiting = store.oldest(batchSize)
            let everything = flushRequested
            guard !waiting.isEmpty, everything || waiting.count == batchSize else {
                if waiting.isEmpty { flushRequested = false }
                return nil
            }
            isUploading = true
            return waiting
        }()
        guard let batch else { return }
        uploader.upload(batch) { [self] succeeded in
            if succeeded {
                if !store.remove(Set(batch.map(\.sequence))) { isStopped = true }
            } else {
                // Leave the rest for the next start (or the next full batch).
                flushRequested = false
            }
            isUploading = false
            if succeeded && !isStopped { upload(onlyFullBatches: true) }
        }
    }
}

/// An ``OperationLogStore`` in memory (entries do not survive a restart).
// Safe to share: `entries` and `nextSequence` are touched only under `lock`.
public final class InMemoryOperationLogStore: OperationLogStore, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [OperationLogEntry] = []
    private var nextSequence: Int64 = 1

    /// An empty store.
    public init() {}

    public func append(event: String, attributes: [String: String], timestamp: Date) -> OperationLogEntry {
        lock.lock()
        defer { lock.unlock() }
        let entry = OperationLogEntry(
            sequence: nextSequence, event: event, attributes: attributes, timestamp: timestamp)
        nextSequence += 1
        entries.append(entry)
        return entry
    }

    public func oldest(_ limit: Int) -> [OperationLogEntry] {
        lock.lock()
        defer { lock.unlock() }
        return Array(entries.prefix(limit))
    }

    @discardableResult
    public func remove(_ sequences: Set<Int64>) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll { sequences.contains($0.sequence) }
        return true
    }

    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}
