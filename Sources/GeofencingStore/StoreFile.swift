import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's file before SQLite opens it: created with mode 0600 when missing, and the errno of a failure turned
/// into a `StoreError` that says what is wrong with the path.
///
/// SQLite would create a missing file itself, but with mode 0644 minus the umask (SQLITE_DEFAULT_FILE_PERMISSIONS),
/// and a chmod afterwards leaves a moment in which other users can open it. Creating it here with open(2) and
/// O_CREAT|O_EXCL, mode 0600, leaves no such window; SQLite then creates the -wal and -shm files with the mode of
/// the database file. An existing file keeps its mode.
enum StoreFile {
    /// Makes sure `path` exists and can be opened for writing, creating it (empty, mode 0600) when it does not exist.
    /// A new file and its directory entry are fsynced, so that the file is still there after a power cut.
    static func prepareForWriting(_ path: String) throws(StoreError) {
        let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 {
            _ = fsync(created)
            _ = close(created)
            // Some file systems cannot fsync a directory (EINVAL); the file then lives as long as their metadata.
            let directory = open(directoryName(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directory >= 0 {
                _ = fsync(directory)
                _ = close(directory)
            }
            return
        }
        var code = errno
        if code == EEXIST {
            let existing = open(path, O_RDWR | O_CLOEXEC)
            if existing >= 0 {
                _ = close(existing)
                return
            }
            code = errno
        }
        throw error(path: path, errno: code)
    }

    /// Makes sure `path` exists and can be read: a store opened read-only is never created.
    static func checkReadable(_ path: String) throws(StoreError) {
        if access(path, R_OK) != 0 {
            let code = errno
            if code == ENOENT, access(directoryName(path), F_OK) == 0 {
                throw .cannotOpen(path: path, reason: "no such file (a store opened read-only is never created)")
            }
            throw error(path: path, errno: code)
        }
    }

    /// The name to give sqlite3_open_v2 for a store opened read-only, and the extra open flags it needs.
    ///
    /// SQLite cannot open a WAL database read-only when its -shm file is missing and cannot be created, which is
    /// the case of a cleanly closed store on a read-only file system. There, and only there, the store is opened
    /// as immutable (URI parameter immutable=1: no locks, no -shm): nobody can change a file on a read-only mount,
    /// and without a -wal file every commit is in the database file. Elsewhere the plain path.
    static func readOnlyOpenName(_ path: String) -> (name: String, flags: Int32) {
        var fileSystem = statvfs()
        guard statvfs(path, &fileSystem) == 0, fileSystem.f_flag & UInt(ST_RDONLY) != 0,
              access(path + "-wal", F_OK) != 0
        else { return (path, 0) }
        return ("file:" + uriEscaped(path) + "?immutable=1", SQLITE_OPEN_URI)
    }

    /// `path` as the path part of a file: URI: every byte but unreserved characters and "/" percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// The `StoreError` for an open(2) or access(2) of `path` that failed with `code`.
    static func error(path: String, errno code: Int32) -> StoreError {
        let system = String(cString: strerror(code))
        switch code {
        case ENOENT:
            return .cannotOpen(path: path, reason: "the directory \(directoryName(path)) does not exist")
        case EROFS:
            return .readOnly(path: path, reason: "its file system is mounted read-only (\(system))")
        case EACCES, EPERM:
            if access(path, F_OK) == 0, access(path, R_OK) == 0 {
                return .readOnly(path: path, reason: "the file is not writable by this user (\(system))")
            }
            return .cannotOpen(path: path, reason: "permission denied (\(system))")
        case EISDIR:
            return .cannotOpen(path: path, reason: "it is a directory")
        case ENOSPC, EDQUOT:
            return .diskFull(path: path)
        default:
            return .cannotOpen(path: path, reason: "\(system) (errno \(code))")
        }
    }

    /// The directory part of `path` ("." for a bare file name), as dirname(3) without modifying its argument.
    static func directoryName(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let directory = trimmed[..<slash]
        return directory.isEmpty ? "/" : String(directory)
    }
}
