import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a database file is opened, decided from the file and its folder.
///
/// A file or folder is write-protected when this process may not write it or when it has
/// no write permission bit at all; the bits count even for root, who could write anyway,
/// as they do for `rm` and editors.
enum OpeningMode: Equatable {
    /// Read and write, creating the file if it is missing.
    case readWrite
    /// Read only, through SQLite's locks: the file or its folder is write-protected, and a
    /// journal or write-ahead log waits beside it, to be read with it.
    case readOnly
    /// Read only, the file as it is on disk (SQLite's immutable mode): the file or its
    /// folder is write-protected and nothing waits beside it. Nothing is created beside it
    /// either: a read-only connection would otherwise leave a shared-memory file (which a
    /// write-protected folder would not even allow), and one made with the database's
    /// read-only permissions keeps later writers out after the file is made writable again.
    case immutable

    /// The mode for the database at `path`; throws when it cannot be opened at all: its
    /// folder is missing (folders are never created) or write-protected with no file in it.
    init(path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var info = stat()
        guard stat(folder, &info) == 0 else {
            throw DatabaseError(.cannotOpen, "cannot open the database at \(path): the folder \(folder) does not exist")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw DatabaseError(.cannotOpen, "cannot open the database at \(path): \(folder) is not a folder")
        }
        let folderProtected = Self.isWriteProtected(folder)
        guard stat(path, &info) == 0 else {
            if folderProtected {
                throw DatabaseError(
                    .readOnly, "cannot create the database at \(path): the folder \(folder) is read-only")
            }
            self = .readWrite
            return
        }
        guard folderProtected || Self.isWriteProtected(path) else {
            self = .readWrite
            return
        }
        let pending = [path + "-wal", path + "-journal"].contains { Self.size(of: $0) > 0 }
        self = pending ? .readOnly : .immutable
    }

    /// The flags for `sqlite3_open_v2`.
    var flags: Int32 {
        switch self {
        case .readWrite: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        case .readOnly: return SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        case .immutable: return SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        }
    }

    /// The name to give `sqlite3_open_v2` for the file at `path`.
    func filename(for path: String) -> String {
        guard self == .immutable else { return path }
        // A URI: every byte but unreserved ones and slashes percent-encoded.
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                uri += String(format: "%%%02X", byte)
            }
        }
        return uri + "?immutable=1"
    }

    /// The size of the file at `path`, 0 when there is none.
    private static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Whether this process may not write `path`, or it has no write permission bit.
    private static func isWriteProtected(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return access(path, W_OK) != 0 || info.st_mode & 0o222 == 0
    }
}
