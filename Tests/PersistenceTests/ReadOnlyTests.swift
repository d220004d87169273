import Foundation
import Persistence
import Testing

/// A database whose file or folder is write-protected opens read-only: it can be read, and
/// writes are refused saying "read-only". Write protection is the permission bits (which
/// count even for root, who tests may run as) or what `access(2)` says.
@Suite struct ReadOnlyTests {
    /// A database at `path` holding two listings, closed cleanly (no journal or log left).
    func makeDatabase(at path: String) throws {
        let database = DatabaseRegistry().database(at: path)
        try ListingTable(database: database).insert([listing("a", "Loft"), listing("b", "Studio")])
        database.close()
    }

    func contents(of folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    func expectRefusedWrite(_ table: ListingTable) {
        do {
            try table.insert(listing("c", "Villa"))
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.kind == .readOnly)
            #expect(error.message.contains("read-only"), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func aWriteProtectedFileIsReadAndRefusesWrites() throws {
        let folder = TemporaryFolder()
        let path = folder.path("ro.sqlite")
        try makeDatabase(at: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let database = DatabaseRegistry().database(at: path)
        let table = ListingTable(database: database)
        #expect(try database.isReadOnly)
        #expect(try table.findAll().compactMap { $0["title"]?.stringValue } == ["Loft", "Studio"])
        expectRefusedWrite(table)
        #expect(throws: DatabaseError.self) { try table.delete(where: "1") }
        #expect(try table.count() == 2)
        database.close()
        // No shared-memory or log file made with the file's read-only permissions, which
        // would keep writers out once it is writable again.
        #expect(try contents(of: folder) == ["ro.sqlite"])
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try ListingTable(database: DatabaseRegistry().database(at: path)).insert(listing("c", "Villa"))
    }

    @Test func aPendingWriteAheadLogIsReadWithTheWriteProtectedFile() throws {
        let folder = TemporaryFolder()
        let path = folder.path("pending.sqlite")
        let writer = DatabaseRegistry().database(at: path)
        try ListingTable(database: writer).insert([listing("a", "Loft"), listing("b", "Studio")])
        // The writer stays open: its rows wait in the log, not yet in the file.
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let reader = DatabaseRegistry().database(at: path)
        #expect(try reader.isReadOnly)
        #expect(try ListingTable(database: reader).count() == 2)
        writer.close()
    }

    @Test func aDatabaseInAWriteProtectedFolderIsReadAndNothingIsWrittenBesideIt() throws {
        let folder = TemporaryFolder()
        // Characters a URI would misread, to show the name reaches SQLite whole.
        let path = folder.path("my ?%#caf\u{E9}.sqlite")
        try makeDatabase(at: path)
        let before = try contents(of: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.url.path)
        let database = DatabaseRegistry().database(at: path)
        let table = ListingTable(database: database)
        #expect(try database.isReadOnly)
        #expect(try table.findAll().compactMap { $0["title"]?.stringValue } == ["Loft", "Studio"])
        expectRefusedWrite(table)
        database.close()
        #expect(try contents(of: folder) == before)
    }

    @Test func noDatabaseIsCreatedInAWriteProtectedFolder() throws {
        let folder = TemporaryFolder()
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.url.path)
        let table = ListingTable(database: folder.database("new.sqlite"))
        do {
            _ = try table.count()
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.kind == .readOnly)
            #expect(error.message.contains("read-only"))
        }
        #expect(try contents(of: folder).isEmpty)
    }

    @Test func aMissingFolderIsNamedAndNeverCreated() throws {
        let folder = TemporaryFolder()
        let missing = folder.url.appendingPathComponent("missing/folder")
        let table = ListingTable(
            database: DatabaseRegistry().database(at: missing.appendingPathComponent("f.sqlite").path))
        do {
            try table.insert(listing("a", "Loft"))
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.kind == .cannotOpen)
            #expect(error.message.hasSuffix("the folder \(missing.path) does not exist"), "\(error.message)")
        }
        #expect(try contents(of: folder).isEmpty)
    }

    @Test func aWritableDatabaseIsNotReadOnly() throws {
        let folder = TemporaryFolder()
        let database = folder.database()
        #expect(try database.isReadOnly == false)
        try ListingTable(database: database).insert(listing("a", "Loft"))
    }
}
