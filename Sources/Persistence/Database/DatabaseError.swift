/// What went wrong with a database, in words a user can act on.
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Equatable {
        /// The file could not be opened or created.
        case cannotOpen
        /// The file is not an SQLite database, or it is damaged.
        case notADatabase
        /// The location or file is read-only.
        case readOnly
        /// A constraint (unique, not null, check) refused the change.
        case constraint
        /// An existing table does not have the columns its declaration expects.
        case schemaMismatch
        /// A record check refused a row before it was written.
        case invalidRecord
        /// A migration failed; the database stays at the version before it.
        case migrationFailed
        /// The database is busy or locked by another process for too long.
        case busy
        /// Any other SQLite error, with its result code.
        case sqlite(code: Int32)
    }

    /// The kind of failure.
    public let kind: Kind
    /// What happened, with SQLite's own message where there is one.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
