#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A daemon's exclusive claim on a store: flock(2) LOCK_EX on the file `<store>.lock` beside it, held for as long as
/// the instance lives (or until `release`), with the holder's process ID written in the file for the message a second
/// claimant gets.
///
/// A store serves one daemon at a time: two would give the same sequence numbers to different events (each continues
/// from the last stored one) and refuse each other's commits. SQLite's own locks cannot say this: they last one
/// transaction, and the daemon holds no transaction between fixes. Other connections (`geofence fences`, a delivery
/// worker, a reader) never take this lock, so they work beside the daemon as before.
///
/// The kernel drops the lock when the process ends, however it ends (kill -9, a crash): a stale lock file with an
/// old process ID in it is simply locked again by the next daemon. The file stays beside the store (removing it on
/// exit would let a third process lock a new file while a second still holds the old one). It is created with mode
/// 0600, never through a symbolic link, and must be a regular file. The lock is on the open file description, so a
/// second claim in the same process is refused as well.
public final class StoreLock {
    /// The store's file, as given.
    public let storePath: String
    /// `<store>.lock`.
    public let lockPath: String
    private var descriptor: Int32

    /// Claims the store at `storePath` without waiting.
    ///
    /// - Throws: `StoreError.inUse` naming the holder's process ID when another open file description holds the
    ///   lock; `cannotOpen` (a symbolic link, not a regular file, a missing directory, permission), `readOnly` or
    ///   `diskFull` when the lock file cannot be opened or created.
    public init(storePath: String) throws(StoreError) {
        guard !storePath.isEmpty else { throw .cannotOpen(path: storePath, reason: "the path is empty") }
        self.storePath = storePath
        self.lockPath = storePath + ".lock"
        // O_NONBLOCK: opening a FIFO someone put there must not block; it is refused below.
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.error(storePath, lockPath, errno) }
        self.descriptor = descriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.error(storePath, lockPath, errno) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .cannotOpen(path: storePath, reason: "its lock file \(lockPath) is "
                + "\(StoreFile.describe(status.st_mode & S_IFMT)), not a regular file")
        }
        if status.st_mode & 0o077 != 0 { _ = fchmod(descriptor, status.st_mode & 0o700) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            guard code == EWOULDBLOCK else { throw Self.error(storePath, lockPath, code) }
            throw .inUse(path: storePath, lockFile: lockPath, holder: Self.holder(descriptor))
        }
        // The process ID is written over the old one and the rest cut off, so a reader sees either the old ID or
        // the new one, never an empty file (unless the first daemon of the file is between open and write).
        let line = Array("\(getpid())\n".utf8)
        _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(descriptor, off_t(line.count))
    }

    deinit { release() }

    /// Gives the store up (closing the lock file drops the lock). Called again, or after deinit's, it does nothing.
    public func release() {
        guard descriptor >= 0 else { return }
        _ = close(descriptor)
        descriptor = -1
    }

    /// The process ID the lock file names: its first line, when that is a positive number.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let line = bytes[..<count].prefix { $0 != UInt8(ascii: "\n") }
        guard let pid = Int32(String(decoding: line, as: UTF8.self)), pid > 0 else { return nil }
        return pid
    }

    /// The `StoreError` for a lock file that could not be opened, checked or locked.
    private static func error(_ storePath: String, _ lockPath: String, _ code: Int32) -> StoreError {
        switch StoreFile.error(path: lockPath, errno: code) {
        case .cannotOpen(_, let reason): .cannotOpen(path: storePath, reason: "its lock file \(lockPath): \(reason)")
        case .readOnly(_, let reason): .readOnly(path: storePath, reason: "its lock file \(lockPath): \(reason)")
        case .diskFull: .diskFull(path: storePath)
        case let other: other
        }
    }
}
