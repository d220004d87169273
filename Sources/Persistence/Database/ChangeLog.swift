// The change log: what SQLite's update hook reports, kept per statement and transaction
// (cut back when a statement fails, dropped when a transaction rolls back), and sent to
// observers after the commit, outside the lock.

import CSQLite
import Foundation
import Signals

/// The rows of a table that one committed change touched.
public struct TableChange: Sendable, Equatable {
    /// The table.
    public let table: String
    /// Rowids inserted.
    public var inserted: [Int64] = []
    /// Rowids updated.
    public var updated: [Int64] = []
    /// Rowids deleted.
    public var deleted: [Int64] = []
    /// Whether the table was truncated.
    public var truncated = false

    /// An empty change of `table`.
    public init(table: String) {
        self.table = table
    }

    /// Whether the change touched nothing.
    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && !truncated }

    /// Whether both changes are of the same table (its name compared by its exact bytes,
    /// as SQLite does) and touched the same rows.
    public static func == (lhs: TableChange, rhs: TableChange) -> Bool {
        ExactText(lhs.table) == ExactText(rhs.table) && lhs.inserted == rhs.inserted && lhs.updated == rhs.updated
            && lhs.deleted == rhs.deleted && lhs.truncated == rhs.truncated
    }
}

extension Database {
    func merge(_ changes: [TableChange], into target: inout [TableChange]) {
        // Mutated in place: copying the accumulated change out and back would copy its
        // arrays on every statement (quadratic in a long transaction).
        for change in changes where !change.isEmpty {
            let index = Self.entry(of: change.table, in: &target)
            target[index].inserted += change.inserted
            target[index].updated += change.updated
            target[index].deleted += change.deleted
            if change.truncated { target[index].truncated = true }
        }
    }

    /// The index of `table`'s entry in `changes`, added if missing.
    private static func entry(of table: String, in changes: inout [TableChange]) -> Int {
        if let index = changes.lastIndex(where: { ExactText.same($0.table, table) }) { return index }
        changes.append(TableChange(table: table))
        return changes.count - 1
    }

    // MARK: - Observation

    /// The committed changes of `table`, one value per committed statement or transaction.
    ///
    /// Values are sent after the commit, on the committing thread; a rolled-back change
    /// sends nothing. `Table.truncate()` sends `truncated`.
    ///
    /// To keep a value in sync with stored rows, use ``observe(tables:_:)``: reading the
    /// rows and then observing this signal misses a commit made between the two.
    public func changes(of table: String) -> Signal<TableChange> {
        locked {
            let key = ExactText(table)
            if let existing = observers[key] { return existing.output }
            let pipe = Signal<TableChange>.pipe()
            observers[key] = pipe
            return pipe.output
        }
    }

    /// Records a truncation of `table`, which SQLite's update hook does not report, as
    /// part of the statement or transaction that deleted the rows.
    func noteTruncated(_ table: String) {
        locked {
            if transactionDepth > 0 {
                transactionChanges[Self.entry(of: table, in: &transactionChanges)].truncated = true
            } else {
                readyChanges[Self.entry(of: table, in: &readyChanges)].truncated = true
            }
        }
    }

    /// Runs `body` holding the connection, with the signal of every commit; for
    /// observations, which must read and start listening while no commit can happen.
    ///
    /// The signal sends, once per commit (a statement outside a transaction, or an
    /// outermost transaction), the changes of every table it touched, sorted by name. It
    /// is sent after the commit and outside the lock, before the changes of each table.
    func observeCommits<Result>(_ body: (_ commits: Signal<[TableChange]>) -> Result) -> Result {
        locked {
            if let commits { return body(commits.output) }
            let pipe = Signal<[TableChange]>.pipe()
            commits = pipe
            return body(pipe.output)
        }
    }

    /// Runs `body` holding the connection, unless this thread has a transaction open: then
    /// nil (what `body` read would not be committed yet).
    func outsideTransactions<Result>(_ body: () throws -> Result) rethrows -> Result? {
        try lockedThenPublishing { transactionDepth > 0 ? nil : try body() }
    }

    /// Sends committed changes to their observers. Only the outermost frame sends, after
    /// letting go of the connection, so observers may use the database freely.
    func publishChanges() {
        lock.lock()
        let publication = takeReadyChanges()
        lock.unlock()
        publication?.send()
    }

    /// Committed changes and where they go, taken out under the lock and sent after it.
    private struct Publication {
        let changes: [TableChange]
        let tables: [(TableChange, Signal<TableChange>.Input)]
        let commits: Signal<[TableChange]>.Input?

        func send() {
            commits?.send(changes)
            for (change, input) in tables { input.send(change) }
        }
    }

    /// The ready changes and their observers, taken out, when the calling frame is the
    /// outermost; called holding `lock`.
    private func takeReadyChanges() -> Publication? {
        guard heldDepth == 0, transactionDepth == 0, !readyChanges.isEmpty else { return nil }
        let changes = readyChanges.sorted { ExactText.precedes($0.table, $1.table) }
        readyChanges = []
        return Publication(
            changes: changes,
            tables: changes.compactMap { change in observers[ExactText(change.table)].map { (change, $0.input) } },
            commits: commits?.input)
    }

    /// `locked` and then `publishChanges`, taking the lock once.
    func lockedThenPublishing<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        heldDepth += 1
        defer {
            heldDepth -= 1
            let publication = takeReadyChanges()
            lock.unlock()
            publication?.send()
        }
        return try body()
    }

    func recordChange(operation: Int32, table: UnsafePointer<CChar>, rowID: Int64) {
        if transactionDepth > 0 {
            record(operation, table, rowID, in: &transactionChanges)
        } else {
            record(operation, table, rowID, in: &readyChanges)
        }
    }

    private func record(
        _ operation: Int32, _ table: UnsafePointer<CChar>, _ rowID: Int64,
        in changes: inout [TableChange]
    ) {
        let length = strlen(table)
        var found: Int?
        for index in changes.indices.reversed() {
            let same = changes[index].table.utf8.withContiguousStorageIfAvailable { name in
                name.count == length && (name.baseAddress.map { memcmp($0, table, length) == 0 } ?? true)
            }
            if same ?? ExactText.same(changes[index].table, String(cString: table)) {
                found = index
                break
            }
        }
        let index = found ?? changes.count
        if found == nil { changes.append(TableChange(table: String(cString: table))) }
        if index < markedEntries && !marks.contains(where: { $0.entry == index }) {
            let change = changes[index]
            marks.append((index, change.inserted.count, change.updated.count, change.deleted.count))
        }
        // Mutated in place: copying the change out and back would copy its arrays each time.
        switch operation {
        case SQLITE_INSERT: changes[index].inserted.append(rowID)
        case SQLITE_UPDATE: changes[index].updated.append(rowID)
        case SQLITE_DELETE: changes[index].deleted.append(rowID)
        default: break
        }
    }

    /// Notes where the change lists stand before a statement runs.
    func markChanges() {
        markedEntries = transactionDepth > 0 ? transactionChanges.count : readyChanges.count
        if !marks.isEmpty { marks.removeAll(keepingCapacity: true) }
    }

    /// Forgets what a failed statement recorded: cuts the lists back to the marks.
    func dropStatementChanges() {
        if transactionDepth > 0 {
            cut(&transactionChanges)
        } else {
            cut(&readyChanges)
        }
    }

    private func cut(_ changes: inout [TableChange]) {
        if changes.count > markedEntries { changes.removeLast(changes.count - markedEntries) }
        for mark in marks {
            changes[mark.entry].inserted.removeLast(changes[mark.entry].inserted.count - mark.inserted)
            changes[mark.entry].updated.removeLast(changes[mark.entry].updated.count - mark.updated)
            changes[mark.entry].deleted.removeLast(changes[mark.entry].deleted.count - mark.deleted)
        }
        marks.removeAll(keepingCapacity: true)
    }
}
