import Foundation
import Networking
import Persistence

/// What the app hands every feature to build its targets with: the session's one engine,
/// database and clock.
package struct FeatureContext: Sendable {
    /// The engine every API call goes through.
    package let engine: APIEngine
    /// The database features keep their tables in, migrated before any target is made.
    package let database: Database
    /// The time screens show (fixed by `--now` for transcripts); what is stored is
    /// stamped with the real time.
    package let now: @Sendable () -> Date

    /// A context of `engine`, `database` and `now`.
    package init(engine: APIEngine, database: Database, now: @escaping @Sendable () -> Date) {
        self.engine = engine
        self.database = database
        self.now = now
    }
}
