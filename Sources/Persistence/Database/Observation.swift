import CSQLite
import Signals

extension Database {
    /// What `read` returns from this database, now and after every commit that changes one
    /// of `tables`: a property that cannot miss a write.
    ///
    /// ```swift
    /// let count = database.observe(tables: ["favorite"]) { database in
    ///     try database.fetch("SELECT count(*) AS n FROM favorite").first?["n"]?.intValue ?? 0
    /// }
    /// count.observe { print($0) }   // success(0) at once, then a value after every commit
    /// ```
    ///
    /// The first read and the start of listening happen in one step, holding the
    /// connection, so no commit can fall between them: reading first and then observing
    /// ``changes(of:)`` misses a commit made in between until the next one. Later reads are
    /// made after the commit that calls for them, one at a time and in order, so the last
    /// value always reflects the last commit; a commit (or transaction) that touches
    /// several of the tables reads once. Each read runs in a transaction of its own, so a
    /// read of several tables sees one state of the file.
    ///
    /// It is a `Property` because stored data always has a current value. The value is a
    /// `Result`, not the value alone, so that a read that fails (a table
    /// dropped, a record that no longer decodes, a file gone bad) reaches observers as
    /// `.failure` instead of vanishing or leaving a stale value unexplained. Observing goes
    /// on: the next commit of the tables reads again, and a success replaces the error.
    ///
    /// **When.** The first read runs now, on the calling thread (waiting for a transaction
    /// another thread has open). Later reads run on the thread that committed, after the
    /// commit and outside the connection's lock, before its write call returns; if another
    /// thread is already delivering commits, that thread reads instead, after its current
    /// work. Observers run where the read ran; `observeOnMainActor` or
    /// `Property.observe(on:)` move them. One read may follow several commits, and a commit
    /// that leaves the value as it was still gives a value: use `skipRepeats(_:)` where
    /// repeats matter.
    ///
    /// **What it sees.** Commits made through this `Database`: the one connection
    /// ``DatabasePool`` gives every part of this process for the file, whose commits SQLite's
    /// update hook reports. It does not see a write by another process, nor through another
    /// `Database` object for the same file (a second pool's), until a commit through this one
    /// reads again; nor changes the update hook does not report: the schema (`DROP TABLE`),
    /// `WITHOUT ROWID` tables, and a raw `DELETE` without `WHERE` (``Table/truncate()`` is
    /// reported). Tables are named as they were created, compared by their exact bytes, as
    /// in ``changes(of:)``.
    ///
    /// Made on a thread that has a transaction of this database open, the first value is
    /// an error: what it read would not be committed yet, and a rollback would send nothing
    /// to correct it.
    ///
    /// `read` must only read: a write in it would be observed too, and could read again
    /// forever. Keep the returned property: releasing it ends the observation (its
    /// observers get nothing more) and lets go of `read`. The observation keeps the database.
    ///
    /// GRDB's `ValueObservation` works much the same way: it too sees only the writes made
    /// through its own connections, reported by SQLite's hooks. On a `DatabaseQueue` it
    /// fetches the first value and starts observing in one serialized database access; on a
    /// `DatabasePool` it fetches from a reader, then fetches again from the writer when
    /// the file may have changed in between. It finds the tables (and columns) from what
    /// the fetch reads, where here they are named. By default it notifies asynchronously on
    /// the main queue, with scheduling options (`.immediate`, `.async(onQueue:)`); here
    /// values arrive at once on the reading thread. It may coalesce changes and notify
    /// repeated values, which `removeDuplicates()` filters. An error ends a GRDB
    /// observation; here it is a value and observing goes on.
    ///
    /// - Parameters:
    ///   - tables: The tables whose commits read again.
    ///   - read: Reads the value from the database it is given.
    /// - Returns: The value, or the error of the latest read.
    public func observe<Value: Sendable>(
        tables: [String],
        _ read: @escaping @Sendable (Database) throws -> Value
    ) -> Property<Result<Value, any Error>> {
        let watched = Set(tables.map(ExactText.init))
        let (state, subscription) = observeCommits { commits in
            // Holding the connection: no commit can happen until the subscription is in place.
            let state = MutableProperty(readCommitted(read))
            // Reads run inside the commits signal's deliveries, which never overlap and keep
            // their order; each read starts after the commit that sent it.
            let subscription = commits.observe { [weak state] changes in
                guard let state, changes.contains(where: { watched.contains(ExactText($0.table)) }) else { return }
                state.value = self.readCommitted(read)
            }
            return (state, subscription)
        }
        // Freeing the property completes it: the subscription, and `read` with it, go then.
        state.signal.observeCompleted { subscription.dispose() }
        return Property(state)
    }

    /// What `read` returns, read in a transaction of its own, or the error it threw.
    private func readCommitted<Value>(_ read: (Database) throws -> Value) -> Result<Value, any Error> {
        Result {
            guard let value = try outsideTransactions({ try transaction { try read($0) } }) else {
                throw Self.observedInTransaction
            }
            return value
        }
    }

    private static let observedInTransaction = DatabaseError(
        .sqlite(code: SQLITE_MISUSE),
        "cannot observe inside a transaction: what it reads is not committed yet; observe before or after it")
}

extension Table {
    /// What `read` returns from this table, now and after every commit that changes it;
    /// the value, or the error of the latest read (see ``Database/observe(tables:_:)``,
    /// which says what it sees and when).
    ///
    /// ```swift
    /// let count = searches.observe { try $0.count() }
    /// ```
    ///
    /// To read other tables as well, observe them all with `Database.observe(tables:_:)`.
    public func observe<Value: Sendable>(
        _ read: @escaping @Sendable (Self) throws -> Value
    ) -> Property<Result<Value, any Error>> {
        let table = self
        return database.observe(tables: [name]) { _ in try read(table) }
    }

    /// Every record of this table, in `ordering` (SQL; by primary key by default), now and
    /// after every commit that changes the table; the records, or the error of the latest
    /// read (see ``Database/observe(tables:_:)``).
    ///
    /// ```swift
    /// let favorites = table.observe(Favorite.self, orderBy: "savedAt DESC")
    /// ```
    public func observe<R: Record & Sendable>(
        _ type: R.Type, orderBy ordering: String? = nil
    ) -> Property<Result<[R], any Error>> {
        observe { try $0.records(type, orderBy: ordering) }
    }
}
