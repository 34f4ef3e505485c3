// Shared test support: small file systems of a test's own, to fill up or to break while a daemon writes to them.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file system mounted for one test under a fresh temporary directory, unmounted (lazily) and removed at deinit.
/// Needs root (CI runs as root); `isAvailable` says whether mounting works here.
///
/// - `tmpfs(size:)`: fills up for real (ENOSPC) when a test writes a filler file.
/// - `ext4(size:)`: an ext4 image on a loop device, mounted `errors=remount-ro`, so `abortToReadOnly()` can turn it
///   read-only while files on it are open for writing, as the kernel does when the disk under it fails. A plain
///   `mount -o remount,ro` refuses that (EBUSY) as long as a process holds a file open for writing: the daemon's
///   store always is.
public final class ScratchFileSystem {
    /// The mount point.
    public let path: String
    private let directory: String

    public enum Kind: Sendable {
        case tmpfs
        case ext4
    }

    /// Whether this process can mount file systems (root with CAP_SYS_ADMIN), tried once on a 64 KiB tmpfs.
    public static let isAvailable: Bool = {
        guard getuid() == 0 else { return false }
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("mount-probe-\(UUID().uuidString)").path
        guard (try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)) != nil
        else { return false }
        defer { try? FileManager.default.removeItem(atPath: point) }
        guard (try? run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point])) != nil else { return false }
        _ = try? run("/bin/umount", ["-l", point])
        return true
    }()

    /// Whether ext4 images can be made and loop-mounted (mkfs.ext4 from e2fsprogs, a free loop device).
    public static let canMountExt4: Bool = isAvailable && FileManager.default.isExecutableFile(atPath: mkfs)

    static let mkfs = "/usr/sbin/mkfs.ext4"

    /// Mounts a file system of `kind` and `size` bytes (mode 0700 at its root).
    public init(_ kind: Kind, size: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fs-\(UUID().uuidString)").path
        path = directory + "/mnt"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        switch kind {
        case .tmpfs:
            try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
        case .ext4:
            let image = directory + "/image"
            _ = FileManager.default.createFile(atPath: image, contents: nil)
            guard truncate(image, off_t(size)) == 0 else {
                throw Failure(message: "truncate \(image): \(String(cString: strerror(errno)))")
            }
            try Self.run(Self.mkfs, ["-q", "-F", image])
            try Self.run("/bin/mount", ["-t", "ext4", "-o", "loop,errors=remount-ro", image, path])
            chmod(path, 0o700)
        }
    }

    /// Makes the file system read-only under everything open on it: ext4's `abort` remount option, which does what
    /// the kernel does on an I/O error with `errors=remount-ro` (writes fail with EROFS from then on, reads work).
    /// ext4 only.
    public func abortToReadOnly() throws {
        try Self.run("/bin/mount", ["-o", "remount,abort", path])
    }

    /// Fills the file system with a file `name` until the kernel says it is full (ENOSPC); returns its size.
    @discardableResult
    public func fill(with name: String = "filler") throws -> Int {
        let descriptor = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(message: "open \(path)/\(name): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0xA5, count: 4096)
        var total = 0
        while true {
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 { total += written; continue }
            if errno == ENOSPC || written == 0 { return total }
            throw Failure(message: "write \(path)/\(name): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        _ = try? Self.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: directory)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Runs a command to completion; throws with its output when it fails.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let (status, text) = try ProgramRun.run(executable, arguments)
        guard status == 0 else {
            throw Failure(message: "\(executable) \(arguments.joined(separator: " ")): \(text)")
        }
    }
}
