import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's file before SQLite opens it: what the path must name, how a missing file is created, and the errno
/// of a failure turned into a `StoreError` that says what is wrong with the path.
///
/// The rules, checked on every open:
/// - The path names a regular file itself: a symbolic link as its last component is refused, never followed (its
///   directories may be links: systemd's DynamicUser state directory is one). So are a directory, a device, a FIFO
///   or a socket. The -wal and -shm files beside it, when they exist, must be regular files too.
/// - Only its owner can read it: a file (or -wal, -shm) that group or others may access is tightened to the owner's
///   bits (0644 becomes 0600) before SQLite reads it, or, when this user cannot change its mode, refused. The file
///   holds where the vehicle was and when.
/// - A missing file is created only by an open that writes and asks for it: empty, mode 0600, with open(2) and
///   O_CREAT|O_EXCL|O_NOFOLLOW (SQLite would create it with mode 0644 minus the umask, and a chmod afterwards would
///   leave a moment in which other users could open it). SQLite then creates the -wal and -shm files with the mode
///   of the database file.
/// - The path is always a file's: SQLite's special names (":memory:", "", a "file:" URI) never reach SQLite as
///   such (`sqliteName`).
///
/// An existing file is examined through an O_PATH descriptor, which reads nothing and, unlike a descriptor opened for
/// reading, holds no POSIX lock state: closing a real descriptor of the database file would drop every SQLite lock
/// this process holds on it (another connection of the same process, a delivery worker's, may hold some).
enum StoreFile {
    /// O_PATH (Linux 2.6.39+): <fcntl.h> defines it only under _GNU_SOURCE, which Swift's Glibc module does not set.
    /// The value is the kernel's ABI (asm-generic/fcntl.h, the same on every Linux architecture but alpha, parisc
    /// and sparc, which Swift does not run on).
    static let openPathOnly: Int32 = 0o10000000

    /// The files SQLite keeps beside the database in WAL mode.
    static let companionSuffixes = ["-wal", "-shm"]

    /// Makes sure `path` is a store file this process may open as asked, creating it (empty, mode 0600) when it does
    /// not exist and `create` is true; tightens the permissions of an existing one and its -wal and -shm files.
    /// A new file and its directory entry are fsynced, so that the file is still there after a power cut.
    ///
    /// - Parameters:
    ///   - readOnly: the file will only be read (never created then, whatever `create` says).
    ///   - create: a missing file is created; otherwise it is `StoreError.noStore`.
    static func prepare(_ path: String, readOnly: Bool, create: Bool) throws(StoreError) {
        guard !path.isEmpty else { throw .cannotOpen(path: path, reason: "the path is empty") }
        let created = create && !readOnly ? try createIfMissing(path) : false
        if !created { try examine(path, what: nil, readOnly: readOnly) }
        for suffix in companionSuffixes {
            try examine(path + suffix, what: suffix, of: path, readOnly: readOnly)
        }
    }

    /// Creates `path` (empty, mode 0600) unless something exists there. Returns whether it created the file.
    private static func createIfMissing(_ path: String) throws(StoreError) -> Bool {
        let created = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard created >= 0 else {
            let code = errno
            // EEXIST for anything at the path, a symbolic link included (O_EXCL never follows one).
            if code == EEXIST { return false }
            throw error(path: path, errno: code)
        }
        _ = fsync(created)
        // Nobody else can hold a lock on a file this call just created, so closing it drops none.
        _ = close(created)
        // Some file systems cannot fsync a directory (EINVAL); the file then lives as long as their metadata.
        let directory = open(directoryName(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            _ = close(directory)
        }
        return true
    }

    /// Checks what is at `file` (the store itself when `what` is nil, else its companion with that suffix, which
    /// may be missing) and tightens its mode.
    private static func examine(
        _ file: String, what suffix: String?, of store: String? = nil, readOnly: Bool
    ) throws(StoreError) {
        let storePath = store ?? file
        let name = suffix.map { "its \($0) file \(file)" } ?? "it"
        let descriptor = open(file, openPathOnly | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if suffix != nil && code == ENOENT { return }
            if code == ENOENT, access(directoryName(file), F_OK) == 0 { throw .noStore(path: storePath) }
            throw error(path: storePath, errno: code)
        }
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw error(path: storePath, errno: errno) }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFLNK {
            throw .cannotOpen(path: storePath, reason: "\(name) is a symbolic link, which is never followed (give "
                + "the path of the file itself)")
        }
        guard kind == S_IFREG else {
            throw .cannotOpen(path: storePath, reason: "\(name) is \(describe(kind)), not a regular file")
        }
        if suffix == nil, access(file, readOnly ? R_OK : R_OK | W_OK) != 0 {
            throw error(path: storePath, errno: errno)
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o077 != 0 else { return }
        let tightened = mode & 0o700
        // chmod through the descriptor's /proc entry changes the inode examined above, whatever the path names now.
        if chmod("/proc/self/fd/\(descriptor)", tightened) == 0 { return }
        let code = errno
        // A read-only file system cannot have its mode changed, nor get a -wal or -shm file that would inherit it.
        if readOnly && code == EROFS { return }
        throw .cannotOpen(
            path: storePath,
            reason: "other users may access \(name) (mode \(octal(mode))) and this user cannot make it "
                + "\(octal(tightened)) (\(String(cString: strerror(code)))): chmod go-rwx it as its owner")
    }

    /// The name to give sqlite3_open_v2 for the file `path`: a relative path gets "./" in front, so that SQLite
    /// opens a file by that name even when the path is one of its special names (":memory:" for a database in
    /// memory, "" for a temporary one, "file:..." for a URI where URIs are enabled).
    static func sqliteName(_ path: String) -> String {
        path.hasPrefix("/") ? path : "./" + path
    }

    /// The name to give sqlite3_open_v2 for a store opened read-only, and the extra open flags it needs.
    ///
    /// SQLite cannot open a WAL database read-only when its -shm file is missing and cannot be created, which is
    /// the case of a cleanly closed store on a read-only file system. There, and only there, the store is opened
    /// as immutable (URI parameter immutable=1: no locks, no -shm): nobody can change a file on a read-only mount,
    /// and without a -wal file every commit is in the database file. Elsewhere `sqliteName(path)`.
    static func readOnlyOpenName(_ path: String) -> (name: String, flags: Int32) {
        var fileSystem = statvfs()
        guard statvfs(path, &fileSystem) == 0, fileSystem.f_flag & UInt(ST_RDONLY) != 0,
              access(path + "-wal", F_OK) != 0
        else { return (sqliteName(path), 0) }
        return ("file:" + uriEscaped(sqliteName(path)) + "?immutable=1", SQLITE_OPEN_URI)
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
            return .cannotOpen(path: path, reason: "it is a directory, not a regular file")
        case ELOOP:
            return .cannotOpen(path: path, reason: "it is a symbolic link, which is never followed (give the path "
                + "of the file itself)")
        case ENOSPC, EDQUOT:
            return .diskFull(path: path)
        default:
            return .cannotOpen(path: path, reason: "\(system) (errno \(code))")
        }
    }

    /// What a file of type `kind` (the S_IFMT bits of st_mode) is, for a message.
    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }

    /// A mode as chmod(1) writes it: 0644.
    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
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
