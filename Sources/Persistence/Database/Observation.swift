import CSQLite
import Signals

extension Database {
    /// What `read` returns from this database, now and after every commit to `tables`.
    ///
    /// It is a property that cannot miss a write: the first read and the start of
    /// listening happen in one step.
    ///
    /// ```swift
    /// let count = database.observe(tables: ["favorite"]) { database in
    ///     try database.fetch("SELECT count(*) AS n FROM favorite").first?["n"]?.intValue ?? 0
    /// }
    /// count.observe { print($0) }   // success(0) at once, then a value after every commit
    /// ```
    ///
    /// The first read runs now, on the calling thread; later ones on the thread that
    /// committed. A read that fails reaches observers as `.failure`, and observing goes on.
    /// It sees commits made through this `Database` only, and not the changes SQLite's
    /// update hook leaves out; when it reads, what it sees and how it compares with GRDB's
    /// `ValueObservation` are in <doc:ObservingStoredValues>.
    ///
    /// - Parameters:
    ///   - tables: The tables whose commits read again, named as they were created.
    ///   - read: Reads the value from the database it is given; it must only read.
    /// - Returns: The value, or the error of the latest read. Keep it: releasing it ends
    ///   the observation.
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
    /// What `read` returns from this table, now and after every commit that changes it.
    ///
    /// The value is a `Result`: the value, or the error of the latest read (see
    /// ``Database/observe(tables:_:)`` and <doc:ObservingStoredValues>).
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

    /// Every record of this table, now and after every commit that changes the table.
    ///
    /// The records come in `ordering` (SQL; by primary key by default). The value is the
    /// records, or the error of the latest read (see ``Database/observe(tables:_:)``).
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
